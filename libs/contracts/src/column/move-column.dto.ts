import { BodyMayBeOmitted } from '../validation/body-may-be-omitted';
import { IsIdString } from '../validation/is-id-string';
import { IsPosition } from '../validation/is-position';
import { MayBeOmitted } from '../validation/may-be-omitted';

/**
 * Body of `POST .../columns/<columnId>/move`: where the column goes, with everything in it,
 * within its project. `{}` moves it to the end of its row.
 */
@BodyMayBeOmitted()
export class MoveColumnDto {
  /**
   * Id of the row of this project to put it in; left out: the row it is in.
   * @example "0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a82"
   */
  @MayBeOmitted()
  @IsIdString()
  rowId?: string;

  /**
   * 0-based index in that row's columns; past the end: the end. Left out: the end.
   * @example 0
   */
  @MayBeOmitted()
  @IsPosition()
  position?: number;
}
