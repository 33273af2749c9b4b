import { Matches } from 'class-validator';
import { RESOURCE_ID } from '../common/pipes/resource-id';
import { ProjectPath } from '../layout/params/layout-paths.params';

/** A member of a project, by its account's id (a malformed id is a 404, as for every id). */
export class MemberPath extends ProjectPath {
  /** Id of the member's account. */
  @Matches(RESOURCE_ID)
  accountId!: string;
}
