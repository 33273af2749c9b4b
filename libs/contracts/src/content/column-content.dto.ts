import { ID_MAX_LENGTH } from '../limits';
import { IsStringOfLength } from '../validation/is-string-of-length';
import { MayBeOmitted } from '../validation/may-be-omitted';
import { ContentBodyDto } from './content-body.dto';

/**
 * An element of a column's `contents` list, which is the column's complete, ordered list of
 * contents: with the `_id` of one of the column's contents it updates that content, without
 * `_id` it creates one.
 */
export class ColumnContentDto extends ContentBodyDto {
  /**
   * The id of one of this column's contents, or left out for a new content.
   * @example "0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a87"
   */
  @MayBeOmitted()
  @IsStringOfLength(1, ID_MAX_LENGTH)
  _id?: string;
}
