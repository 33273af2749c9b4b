import { HintSchema } from '../validation/schema-hints';
import type { BackgroundRepeat } from './content-style';

/** The complete style of a content, defaults filled in. */
export class ContentStyleResponse {
  /**
   * `""` (no image) or an absolute http(s) URL in its stored form: without `(`, `)`, quotes,
   * backslashes or whitespace, so that it goes into a CSS `url()` as it is.
   * @example ""
   */
  backgroundImage!: string;

  /**
   * One of `repeat`, `repeat-x`, `repeat-y`, `no-repeat`, `space`, `round`.
   * @example "no-repeat"
   */
  backgroundRepeat!: BackgroundRepeat;

  /**
   * CSS background-size.
   * @example "cover"
   */
  backgroundSize!: string;

  /**
   * CSS background-position.
   * @example "center center"
   */
  backgroundPosition!: string;

  /**
   * From 0 (transparent) to 1 (opaque).
   * @example 1
   */
  @HintSchema({ type: 'number', minimum: 0, maximum: 1 })
  opacity!: number;
}
