import { TITLE_MAX_LENGTH, TITLE_MIN_LENGTH } from '../limits';
import { IsStringOfLength } from '../validation/is-string-of-length';
import { MayBeOmitted } from '../validation/may-be-omitted';

/** Body of `PUT /projects/<projectId>`; a title left out keeps its value. */
export class UpdateProjectDto {
  /**
   * 1 to 200 characters.
   * @example "Proposal for ACME, revised"
   */
  @MayBeOmitted()
  @IsStringOfLength(TITLE_MIN_LENGTH, TITLE_MAX_LENGTH)
  title?: string;
}
