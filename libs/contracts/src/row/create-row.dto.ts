import { DESCRIPTION_MAX_LENGTH } from '../limits';
import { BodyMayBeOmitted } from '../validation/body-may-be-omitted';
import { IsPosition } from '../validation/is-position';
import { IsStringOfLength } from '../validation/is-string-of-length';
import { MayBeOmitted } from '../validation/may-be-omitted';

/**
 * Body of `POST .../blocks/<blockId>/rows`. `{}`, or no body at all, appends an empty row with
 * the description `""`.
 */
@BodyMayBeOmitted()
export class CreateRowDto {
  /**
   * At most 500 characters; `""` when left out.
   * @example "Two columns"
   */
  @MayBeOmitted()
  @IsStringOfLength(0, DESCRIPTION_MAX_LENGTH)
  description?: string;

  /**
   * 0-based index to insert at; past the end (or left out) appends.
   * @example 0
   */
  @MayBeOmitted()
  @IsPosition()
  position?: number;
}
