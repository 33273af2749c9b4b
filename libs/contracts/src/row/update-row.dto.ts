import { DESCRIPTION_MAX_LENGTH } from '../limits';
import { IsPosition } from '../validation/is-position';
import { IsStringOfLength } from '../validation/is-string-of-length';
import { MayBeOmitted } from '../validation/may-be-omitted';

/** Body of `PUT .../rows/<rowId>`; members left out keep their value. */
export class UpdateRowDto {
  /**
   * At most 500 characters.
   * @example "Two columns"
   */
  @MayBeOmitted()
  @IsStringOfLength(0, DESCRIPTION_MAX_LENGTH)
  description?: string;

  /**
   * 0-based index to move the row to; past the end moves it to the end.
   * @example 0
   */
  @MayBeOmitted()
  @IsPosition()
  position?: number;
}
