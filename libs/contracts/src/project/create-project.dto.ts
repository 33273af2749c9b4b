import { TITLE_MAX_LENGTH, TITLE_MIN_LENGTH } from '../limits';
import { IsStringOfLength } from '../validation/is-string-of-length';

/** Body of `POST /projects`. */
export class CreateProjectDto {
  /**
   * 1 to 200 characters.
   * @example "Proposal for ACME"
   */
  @IsStringOfLength(TITLE_MIN_LENGTH, TITLE_MAX_LENGTH)
  title!: string;
}
