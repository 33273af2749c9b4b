import { ContentStyleDto } from '../content/content-style.dto';
import { IsCssColor } from '../validation/is-css-color';
import { MayBeOmitted } from '../validation/may-be-omitted';

/** Style of a block: a content's style members plus a background colour, all optional. */
export class BlockStyleDto extends ContentStyleDto {
  /**
   * A CSS colour: `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, `rgb()`, `rgba()` or a colour name.
   * @example "rgba(255, 255, 255, 1)"
   */
  @MayBeOmitted()
  @IsCssColor()
  backgroundColor?: string;
}
