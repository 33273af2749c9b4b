import { AcceptsNoMembers } from '../validation/accepts-no-members';
import { BodyMayBeOmitted } from '../validation/body-may-be-omitted';

/**
 * Body of `POST /projects/<projectId>/events/tickets`: none, or `{}`. The ticket is for the
 * project in the path and the caller's token; any member is an unknown one.
 */
@BodyMayBeOmitted()
@AcceptsNoMembers()
export class IssueEventTicketDto {}
