import { PASSWORD_MAX_LENGTH, USERNAME_MAX_LENGTH } from '../limits';
import { IsStringOfLength } from '../validation/is-string-of-length';

/**
 * Body of `POST /accounts/auth/token`. Only the upper bounds of sign-up apply, so that a huge
 * input is refused before any password hashing; a wrong pair gets 401, not 400.
 */
export class TokenRequestDto {
  /** @example "ada@example.com" */
  @IsStringOfLength(1, USERNAME_MAX_LENGTH)
  username!: string;

  /** @example "correct horse battery staple" */
  @IsStringOfLength(1, PASSWORD_MAX_LENGTH)
  password!: string;
}
