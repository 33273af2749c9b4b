import { IsPosition } from '../validation/is-position';
import { MayBeOmitted } from '../validation/may-be-omitted';
import { ContentBodyDto } from './content-body.dto';

/** Body of `POST .../columns/<columnId>/contents`. */
export class CreateContentDto extends ContentBodyDto {
  /**
   * 0-based index to insert at; past the end (or left out) appends.
   * @example 0
   */
  @MayBeOmitted()
  @IsPosition()
  position?: number;
}
