import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
} from '../limits';
import { IsStringOfLength } from '../validation/is-string-of-length';

/** Body of `POST /accounts`. */
export class SignUpDto {
  /**
   * 3 to 254 characters, unique regardless of case.
   * @example "ada@example.com"
   */
  @IsStringOfLength(USERNAME_MIN_LENGTH, USERNAME_MAX_LENGTH)
  username!: string;

  /**
   * 8 to 256 characters.
   * @example "correct horse battery staple"
   */
  @IsStringOfLength(PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH)
  password!: string;
}
