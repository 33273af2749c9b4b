import { BlockTreeDto } from '../tree/block-tree.dto';
import { IsPosition } from '../validation/is-position';
import { MayBeOmitted } from '../validation/may-be-omitted';

/**
 * Body of `POST /projects/<projectId>/blocks`: a block, with its rows (and theirs) when given,
 * as a read shows it (a read's `_id` and times are ignored).
 */
export class CreateBlockDto extends BlockTreeDto {
  /**
   * 0-based index to insert at; past the end (or left out) appends.
   * @example 0
   */
  @MayBeOmitted()
  @IsPosition()
  position?: number;
}
