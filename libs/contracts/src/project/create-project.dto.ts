import { TITLE_MAX_LENGTH, TITLE_MIN_LENGTH } from '../limits';
import { BlockTreeDto } from '../tree/block-tree.dto';
import { AcceptsReadMembers, ReadMember } from '../tree/read-member';
import { IsStringOfLength } from '../validation/is-string-of-length';
import { MayBeOmitted } from '../validation/may-be-omitted';
import { NestedObjectList } from '../validation/nested-object';
import { ToInstancesOf } from '../validation/to-instance';

/**
 * Body of `POST /projects`: a project, with its blocks (and everything in them) when given, as
 * a read or an export (`?format=portable`) shows it: a read posted back makes a copy, with new
 * ids, at revision 1.
 */
@AcceptsReadMembers()
export class CreateProjectDto {
  /** Ignored: the new project gets a new id. */
  _id?: string;

  /**
   * 1 to 200 characters.
   * @example "Proposal for ACME"
   */
  @IsStringOfLength(TITLE_MIN_LENGTH, TITLE_MAX_LENGTH)
  title!: string;

  /** Ignored: a new project starts at revision 1. */
  revision?: number;

  /** Ignored: the new project's times are its own. */
  createdAt?: string;

  /** Ignored: the new project's times are its own. */
  updatedAt?: string;

  /** Ignored: the caller owns the project it creates. */
  @ReadMember({ type: 'string', readOnly: true })
  role?: string;

  /** The project's blocks, in order (at most 500), each with everything in it. */
  @MayBeOmitted()
  @ToInstancesOf(() => BlockTreeDto)
  @NestedObjectList()
  blocks?: BlockTreeDto[];
}
