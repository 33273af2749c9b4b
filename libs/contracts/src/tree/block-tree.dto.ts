import { BlockStyleDto } from '../block/block-style.dto';
import { DESCRIPTION_MAX_LENGTH } from '../limits';
import { IsStringOfLength } from '../validation/is-string-of-length';
import { MayBeOmitted } from '../validation/may-be-omitted';
import { NestedObject, NestedObjectList } from '../validation/nested-object';
import { ToInstanceOf, ToInstancesOf } from '../validation/to-instance';
import { READ_ID, READ_TIME, ReadMember } from './read-member';
import { RowTreeDto } from './row-tree.dto';

/** A block inside a tree that a create makes, with its rows, as a read shows it. */
export class BlockTreeDto {
  /** Ignored: the new block gets a new id. */
  @ReadMember(READ_ID)
  _id?: string;

  /** Ignored: the new block's times are its own. */
  @ReadMember(READ_TIME)
  createdAt?: string;

  /** Ignored: the new block's times are its own. */
  @ReadMember(READ_TIME)
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
