import { ColumnTreeDto } from '../tree/column-tree.dto';
import { IsPosition } from '../validation/is-position';
import { MayBeOmitted } from '../validation/may-be-omitted';

/**
 * Body of `POST .../rows/<rowId>/columns`: a column, with its contents when given (at most
 * 1000: more answers 409 `/problems/limit-exceeded`), as a read shows it (a read's `_id`s are
 * ignored: every content is new).
 */
export class CreateColumnDto extends ColumnTreeDto {
  /**
   * 0-based index to insert at; past the end (or left out) appends.
   * @example 0
   */
  @MayBeOmitted()
  @IsPosition()
  position?: number;
}
