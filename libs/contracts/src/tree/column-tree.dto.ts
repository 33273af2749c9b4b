import { IsColumnSize } from '../validation/is-column-size';
import { MayBeOmitted } from '../validation/may-be-omitted';
import { NestedObjectList } from '../validation/nested-object';
import { ToColumnSize } from '../validation/to-column-size';
import { ToInstancesOf } from '../validation/to-instance';
import { ContentTreeDto } from './content-tree.dto';
import { AcceptsReadMembers } from './read-member';

/** A column inside a tree that a create makes, with its contents, as a read shows it. */
@AcceptsReadMembers()
export class ColumnTreeDto {
  /** Ignored, as every member a read adds: the new node's are its own. */
  _id?: string;

  /**
   * Width on the 12-unit grid: an integer from 1 to 12, or its string form (`"6"`). The sizes
   * of a row's columns add up to at most 12.
   * @example 6
   */
  @ToColumnSize()
  @IsColumnSize()
  size!: number;

  /** The column's contents, in order (at most 1000). */
  @MayBeOmitted()
  @ToInstancesOf(() => ContentTreeDto)
  @NestedObjectList()
  contents?: ContentTreeDto[];
}
