import { TITLE_MAX_LENGTH, TITLE_MIN_LENGTH } from '../limits';
import { BlockTreeDto } from '../tree/block-tree.dto';
import { READ_ID, READ_TIME, ReadMember } from '../tree/read-member';
import { IsStringOfLength } from '../validation/is-string-of-length';
import { MayBeOmitted } from '../validation/may-be-omitted';
import { NestedObjectList } from '../validation/nested-object';
import { ToInstancesOf } from '../validation/to-instance';

/**
 * Body of `POST /projects`: a project, with its blocks (and everything in them) when given, as
 * a read or an export (`?format=portable`) shows it: a read posted back makes a copy, with new
 * ids, at revision 1.
 */
export class CreateProjectDto {
  /** Ignored: the new project gets a new id. */
  @ReadMember(READ_ID)
  _id?: string;

  /**
   * 1 to 200 characters.
   * @example "Proposal for ACME"
   */
  @IsStringOfLength(TITLE_MIN_LENGTH, TITLE_MAX_LENGTH)
  title!: string;

  /** Ignored: a new project starts at revision 1. */
  @ReadMember({ type: 'integer' })
  revision?: number;

  /** Ignored: the new project's times are its own. */
  @ReadMember(READ_TIME)
  createdAt?: string;

  /** Ignored: the new project's times are its own. */
  @ReadMember(READ_TIME)
  updatedAt?: string;

  /** Ignored: the caller owns the project it creates. */
  @ReadMember({ type: 'string' })
  role?: string;

  /** The project's blocks, in order (at most 500), each with everything in it. */
  @MayBeOmitted()
  @ToInstancesOf(() => BlockTreeDto)
  @NestedObjectList()
  blocks?: BlockTreeDto[];
}
