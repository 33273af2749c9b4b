import { ColumnContentDto } from '../content/column-content.dto';
import { IsColumnSize } from '../validation/is-column-size';
import { IsPosition } from '../validation/is-position';
import { MayBeOmitted } from '../validation/may-be-omitted';
import { NestedObjectList } from '../validation/nested-object';
import { ToColumnSize } from '../validation/to-column-size';
import { ToInstancesOf } from '../validation/to-instance';

/** Body of `POST .../rows/<rowId>/columns`. */
export class CreateColumnDto {
  /**
   * Width on the 12-unit grid: an integer from 1 to 12, or its string form as responses render it
   * (`"6"`). The sizes of a row's columns add up to at most 12.
   * @example 6
   */
  @ToColumnSize()
  @IsColumnSize()
  size!: number;

  /** The column's contents, in order (at most 1000: more answers 409 `/problems/limit-exceeded`). */
  @MayBeOmitted()
  @ToInstancesOf(() => ColumnContentDto)
  @NestedObjectList()
  contents?: ColumnContentDto[];

  /**
   * 0-based index to insert at; past the end (or left out) appends.
   * @example 0
   */
  @MayBeOmitted()
  @IsPosition()
  position?: number;
}
