import { AcceptsNoMembers } from '../../validation/accepts-no-members';

/** Data of an `empty` content: it has no members, so `data` is `{}` or left out. */
@AcceptsNoMembers()
export class EmptyDataDto {}
