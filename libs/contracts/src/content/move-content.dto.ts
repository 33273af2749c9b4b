import { BodyMayBeOmitted } from '../validation/body-may-be-omitted';
import { IsIdString } from '../validation/is-id-string';
import { IsPosition } from '../validation/is-position';
import { MayBeOmitted } from '../validation/may-be-omitted';

/**
 * Body of `POST .../contents/<contentId>/move`: where the content goes in its project. `{}` moves it to the end of its column.
 */
@BodyMayBeOmitted()
export class MoveContentDto {
  /**
   * Id of the column of this project to put it in; left out: the column it is in.
   * @example "0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a83"
   */
  @MayBeOmitted()
  @IsIdString()
  columnId?: string;

  /**
   * 0-based index in that column's contents; past the end: the end. Left out: the end.
   * @example 0
   */
  @MayBeOmitted()
  @IsPosition()
  position?: number;
}
