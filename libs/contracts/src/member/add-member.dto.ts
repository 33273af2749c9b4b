import { USERNAME_MAX_LENGTH } from '../limits';
import { IsOneOf } from '../validation/is-one-of';
import { IsStringOfLength } from '../validation/is-string-of-length';
import { ADDED_MEMBER_ROLES, type AddedMemberRole } from './project-role';

/** Body of `POST /projects/<p>/members`: an account, by its username, and its role. */
export class AddMemberDto {
  /**
   * The account's username (compared regardless of case, as at sign-in).
   * @example "grace"
   */
  @IsStringOfLength(1, USERNAME_MAX_LENGTH)
  username!: string;

  /**
   * `editor` or `viewer` (a project has one owner: hand it over with `PUT …/members/<id>`).
   * @example "editor"
   */
  @IsOneOf(ADDED_MEMBER_ROLES)
  role!: AddedMemberRole;
}
