import { ColumnContentDto } from '../content/column-content.dto';
import { ID_MAX_LENGTH } from '../limits';
import { IsColumnSize } from '../validation/is-column-size';
import { IsPosition } from '../validation/is-position';
import { IsStringOfLength } from '../validation/is-string-of-length';
import { MayBeOmitted } from '../validation/may-be-omitted';
import { NestedObjectList } from '../validation/nested-object';
import { ToColumnSize } from '../validation/to-column-size';
import { ToInstancesOf } from '../validation/to-instance';

/** Body of `PUT .../columns/<columnId>`; members left out keep their value. */
export class UpdateColumnDto {
  /**
   * Optional, so that a client can send back what it read; must equal the path id.
   * @example "0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a87"
   */
  @MayBeOmitted()
  @IsStringOfLength(1, ID_MAX_LENGTH)
  _id?: string;

  /**
   * An integer from 1 to 12, or its string form (`"6"`).
   * @example 4
   */
  @MayBeOmitted()
  @ToColumnSize()
  @IsColumnSize()
  size?: number;

  /**
   * The complete, ordered list of the column's contents (at most 1000: more answers 409 `/problems/limit-exceeded`): an element with the `_id`
   * of one of its contents updates it, one without `_id` creates one, contents not listed are
   * deleted.
   */
  @MayBeOmitted()
  @ToInstancesOf(() => ColumnContentDto)
  @NestedObjectList()
  contents?: ColumnContentDto[];

  /**
   * 0-based index to move the column to; past the end moves it to the end.
   * @example 0
   */
  @MayBeOmitted()
  @IsPosition()
  position?: number;
}
