import { BlockStyleDto } from '../block/block-style.dto';
import { DESCRIPTION_MAX_LENGTH } from '../limits';
import { IsStringOfLength } from '../validation/is-string-of-length';
import { MayBeOmitted } from '../validation/may-be-omitted';
import { NestedObject, NestedObjectList } from '../validation/nested-object';
import { ToInstanceOf, ToInstancesOf } from '../validation/to-instance';
import { AcceptsReadMembers } from './read-member';
import { RowTreeDto } from './row-tree.dto';

/** A block inside a tree that a create makes, with its rows, as a read shows it. */
@AcceptsReadMembers()
export class BlockTreeDto {
  /** Ignored, as every member a read adds: the new node's are its own. */
  _id?: string;

  /** Ignored, as every member a read adds: the new node's are its own. */
  createdAt?: string;

  /** Ignored, as every member a read adds: the new node's are its own. */
  updatedAt?: string;

  /**
   * At most 500 characters; required, but may be empty.
   * @example "Pricing"
   */
  @IsStringOfLength(0, DESCRIPTION_MAX_LENGTH)
  description!: string;

  /** Style of the block; members left out get their defaults. */
  @MayBeOmitted()
  @ToInstanceOf(() => BlockStyleDto)
  @NestedObject()
  style?: BlockStyleDto;

  /** The block's rows, in order (at most 500). */
  @MayBeOmitted()
  @ToInstancesOf(() => RowTreeDto)
  @NestedObjectList()
  rows?: RowTreeDto[];
}
