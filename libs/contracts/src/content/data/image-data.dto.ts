import { IMAGE_ALT_MAX_LENGTH } from '../../limits';
import { IsImageUrl } from '../../validation/is-http-url';
import { IsImageDimension } from '../../validation/is-image-dimension';
import { IsStringOfLength } from '../../validation/is-string-of-length';
import { MayBeOmitted } from '../../validation/may-be-omitted';

/** Data of an `image` content. */
export class ImageDataDto {
  /**
   * Absolute http(s) URL of the image, at most 2048 characters, also once stored, or the path
   * of an image uploaded to this service (`/assets/<id>`), which the writer uploaded or which a
   * project of the writer's already names.
   * Stored normalised: in WHATWG URL form (`new URL(url).href`), with `(`, `)`, `'`, `"`, `\`,
   * the backtick, `<` and `>` percent-encoded, so that it goes into a CSS `url()` as it is
   * (`File:A_(b).png` is stored as `File:A_%28b%29.png`).
   * @example "https://example.com/team.png"
   */
  @MayBeOmitted()
  @IsImageUrl()
  url?: string;

  /**
   * A CSS length or percentage (`"600px"`, `"50%"`, `"auto"`) or a number of pixels (0 or more).
   * @example "600px"
   */
  @MayBeOmitted()
  @IsImageDimension()
  width?: string | number;

  /**
   * A CSS length or percentage (`"400px"`, `"50%"`, `"auto"`) or a number of pixels (0 or more).
   * @example "auto"
   */
  @MayBeOmitted()
  @IsImageDimension()
  height?: string | number;

  /**
   * Alternative text, at most 500 characters.
   * @example "Our team at work"
   */
  @MayBeOmitted()
  @IsStringOfLength(0, IMAGE_ALT_MAX_LENGTH)
  alt?: string;
}
