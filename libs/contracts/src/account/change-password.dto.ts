import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../limits';
import { IsStringOfLength } from '../validation/is-string-of-length';

/**
 * Body of `PUT /accounts/auth/me/password`. The current password is checked as a sign-in is
 * (only the upper bound applies: a wrong one answers 403, not 400); the new one follows the
 * sign-up rule.
 */
export class ChangePasswordDto {
  /** @example "correct horse battery staple" */
  @IsStringOfLength(1, PASSWORD_MAX_LENGTH)
  currentPassword!: string;

  /**
   * 8 to 256 characters.
   * @example "a new horse battery staple"
   */
  @IsStringOfLength(PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH)
  newPassword!: string;
}
