import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../limits';
import { IsStringOfLength } from '../validation/is-string-of-length';
import { IsUsername } from './username';

/** Body of `POST /accounts`. */
export class SignUpDto {
  /**
   * 3 to 254 characters once normalised: surrounding whitespace is removed and the name is
   * put in Unicode NFKC (fullwidth `ａｄａ` becomes `ada`); the account keeps that form, with its
   * case. Letters, marks, digits, punctuation and symbols only: no spaces inside, no control,
   * format or unassigned characters. Unique regardless of case and width (PRECIS
   * UsernameCaseMapped, RFC 8265): `Ada` and `ＡＤＡ` are taken once `ada` is.
   * @example "ada@example.com"
   */
  @IsUsername()
  username!: string;

  /**
   * 8 to 256 characters.
   * @example "correct horse battery staple"
   */
  @IsStringOfLength(PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH)
  password!: string;
}
