import { DESCRIPTION_MAX_LENGTH } from '../limits';
import { IsStringOfLength } from '../validation/is-string-of-length';
import { MayBeOmitted } from '../validation/may-be-omitted';
import { NestedObjectList } from '../validation/nested-object';
import { ToInstancesOf } from '../validation/to-instance';
import { ColumnTreeDto } from './column-tree.dto';
import { AcceptsReadMembers } from './read-member';

/** A row inside a tree that a create makes, with its columns, as a read shows it. */
@AcceptsReadMembers()
export class RowTreeDto {
  /** Ignored, as every member a read adds: the new node's are its own. */
  _id?: string;

  /**
   * At most 500 characters; `""` when left out.
   * @example "Two columns"
   */
  @MayBeOmitted()
  @IsStringOfLength(0, DESCRIPTION_MAX_LENGTH)
  description?: string;

  /** The row's columns, in order (their sizes add up to at most 12). */
  @MayBeOmitted()
  @ToInstancesOf(() => ColumnTreeDto)
  @NestedObjectList()
  columns?: ColumnTreeDto[];
}
