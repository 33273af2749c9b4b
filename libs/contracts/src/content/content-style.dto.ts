import { IsBackgroundPosition } from '../validation/is-background-position';
import { IsBackgroundSize } from '../validation/is-background-size';
import { IsBackgroundImage } from '../validation/is-http-url';
import { IsNumberInRange } from '../validation/is-number-in-range';
import { IsOneOf } from '../validation/is-one-of';
import { MayBeOmitted } from '../validation/may-be-omitted';
import { BACKGROUND_REPEAT_VALUES } from './content-style';
import type { BackgroundRepeat } from './content-style';

/** Style of a content. Every member is optional; a member left out keeps its default. */
export class ContentStyleDto {
  /**
   * `""` (no image), an absolute http(s) URL of at most 2048 characters, also once stored, or
   * the path of an image uploaded to this service (`/assets/<id>`), which the writer uploaded or
   * which a project of the writer's already names.
   * Stored normalised: in WHATWG URL form (`new URL(url).href`), with `(`, `)`, `'`, `"`, `\`,
   * the backtick, `<` and `>` percent-encoded, so that it goes into a CSS `url()` as it is
   * (`File:A_(b).png` is stored as `File:A_%28b%29.png`).
   * @example "https://example.com/background.jpg"
   */
  @MayBeOmitted()
  @IsBackgroundImage()
  backgroundImage?: string;

  /**
   * One of `repeat`, `repeat-x`, `repeat-y`, `no-repeat`, `space`, `round`.
   * @example "no-repeat"
   */
  @MayBeOmitted()
  @IsOneOf(BACKGROUND_REPEAT_VALUES)
  backgroundRepeat?: BackgroundRepeat;

  /**
   * `auto`, `cover`, `contain`, or one or two CSS lengths or percentages.
   * @example "cover"
   */
  @MayBeOmitted()
  @IsBackgroundSize()
  backgroundSize?: string;

  /**
   * One or two of `left`, `right`, `top`, `bottom`, `center`, or CSS lengths or percentages.
   * @example "center center"
   */
  @MayBeOmitted()
  @IsBackgroundPosition()
  backgroundPosition?: string;

  /**
   * A number from 0 (transparent) to 1 (opaque).
   * @example 1
   */
  @MayBeOmitted()
  @IsNumberInRange(0, 1)
  opacity?: number;
}
