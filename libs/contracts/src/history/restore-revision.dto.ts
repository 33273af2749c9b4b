import { AcceptsNoMembers } from '../validation/accepts-no-members';
import { BodyMayBeOmitted } from '../validation/body-may-be-omitted';

/**
 * Body of `POST /projects/<projectId>/revisions/<revision>/restore`: none, or `{}`. The revision
 * is in the path and the precondition in `If-Match`; any member is an unknown one.
 */
@BodyMayBeOmitted()
@AcceptsNoMembers()
export class RestoreRevisionDto {}
