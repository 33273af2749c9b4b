import { RowTreeDto } from '../tree/row-tree.dto';
import { BodyMayBeOmitted } from '../validation/body-may-be-omitted';
import { IsPosition } from '../validation/is-position';
import { MayBeOmitted } from '../validation/may-be-omitted';

/**
 * Body of `POST …/blocks/<blockId>/rows` (it may be left out): a row, with its columns (and
 * theirs) when given, as a read shows it (a read's `_id` is ignored).
 */
@BodyMayBeOmitted()
export class CreateRowDto extends RowTreeDto {
  /**
   * 0-based index to insert at; past the end (or left out) appends.
   * @example 0
   */
  @MayBeOmitted()
  @IsPosition()
  position?: number;
}
