import { ID_MAX_LENGTH } from '../limits';
import { IsPosition } from '../validation/is-position';
import { IsStringOfLength } from '../validation/is-string-of-length';
import { MayBeOmitted } from '../validation/may-be-omitted';
import { ContentBodyDto } from './content-body.dto';

/**
 * Body of `PUT .../contents/<contentId>`. `type` is required; other members left out keep their
 * stored value (and `data` becomes `{}` when `type` changes without it).
 */
export class UpdateContentDto extends ContentBodyDto {
  /**
   * Optional, so that a client can send back what it read; must equal the path id.
   * @example "0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a87"
   */
  @MayBeOmitted()
  @IsStringOfLength(1, ID_MAX_LENGTH)
  _id?: string;

  /**
   * 0-based index to move the content to; past the end moves it to the end.
   * @example 0
   */
  @MayBeOmitted()
  @IsPosition()
  position?: number;
}
