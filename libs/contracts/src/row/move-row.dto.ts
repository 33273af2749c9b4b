import { BodyMayBeOmitted } from '../validation/body-may-be-omitted';
import { IsIdString } from '../validation/is-id-string';
import { IsPosition } from '../validation/is-position';
import { MayBeOmitted } from '../validation/may-be-omitted';

/**
 * Body of `POST .../rows/<rowId>/move`: where the row goes, with everything in it,
 * within its project. `{}` moves it to the end of its block.
 */
@BodyMayBeOmitted()
export class MoveRowDto {
  /**
   * Id of the block of this project to put it in; left out: the block it is in.
   * @example "0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a81"
   */
  @MayBeOmitted()
  @IsIdString()
  blockId?: string;

  /**
   * 0-based index in that block's rows; past the end: the end. Left out: the end.
   * @example 0
   */
  @MayBeOmitted()
  @IsPosition()
  position?: number;
}
