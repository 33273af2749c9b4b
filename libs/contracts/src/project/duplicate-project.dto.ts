import { BodyMayBeOmitted } from '../validation/body-may-be-omitted';
import { TITLE_MAX_LENGTH, TITLE_MIN_LENGTH } from '../limits';
import { IsStringOfLength } from '../validation/is-string-of-length';
import { MayBeOmitted } from '../validation/may-be-omitted';

/** The title a copy gets when the body names none: the original's, followed by this. */
export const COPY_TITLE_SUFFIX = ' (copy)';

/** Body of `POST /projects/<projectId>/duplicate`. */
@BodyMayBeOmitted()
export class DuplicateProjectDto {
  /**
   * 1 to 200 characters. Left out: the original's title followed by ` (copy)` (the title cut
   * short to fit 200 characters).
   * @example "Proposal for ACME, second draft"
   */
  @MayBeOmitted()
  @IsStringOfLength(TITLE_MIN_LENGTH, TITLE_MAX_LENGTH)
  title?: string;
}
