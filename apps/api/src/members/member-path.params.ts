import { Matches } from 'class-validator';
import { RESOURCE_ID } from '../common/pipes/resource-id';

/** The members of a project (a malformed id is a 404, as for every id). */
export class MembersPath {
  /** Id of the project. */
  @Matches(RESOURCE_ID)
  projectId!: string;
}

/** A member of a project, by its account's id (a malformed id is a 404, as for every id). */
export class MemberPath extends MembersPath {
  /** Id of the member's account. */
  @Matches(RESOURCE_ID)
  accountId!: string;
}
