import { IsOneOf } from '../validation/is-one-of';
import { PROJECT_ROLES, type ProjectRole } from './project-role';

/**
 * Body of `PUT /projects/<p>/members/<accountId>`. `owner` hands the project over: the member
 * becomes its owner, and the owner who sent it an `editor`.
 */
export class ChangeMemberRoleDto {
  /** @example "viewer" */
  @IsOneOf(PROJECT_ROLES)
  role!: ProjectRole;
}
