import { ContentTreeDto } from '../tree/content-tree.dto';
import { IsPosition } from '../validation/is-position';
import { MayBeOmitted } from '../validation/may-be-omitted';

/** Body of `POST .../columns/<columnId>/contents` (a read's `_id` is ignored). */
export class CreateContentDto extends ContentTreeDto {
  /**
   * 0-based index to insert at; past the end (or left out) appends.
   * @example 0
   */
  @MayBeOmitted()
  @IsPosition()
  position?: number;
}
