import { IsOneOf } from '../validation/is-one-of';
import { MayBeOmitted } from '../validation/may-be-omitted';
import { NestedObject } from '../validation/nested-object';
import { HintVariants } from '../validation/schema-hints';
import { ToInstanceOf } from '../validation/to-instance';
import { ContentStyleDto } from './content-style.dto';
import { CONTENT_TYPES } from './content-type';
import type { ContentType } from './content-type';
import { CONTENT_VARIANTS, ToContentData } from './data/content-data';
import type { ContentDataDto } from './data/content-data';

/** The members every content body has: its type, style and type-dependent data. */
@HintVariants(CONTENT_VARIANTS)
export abstract class ContentBodyDto {
  /**
   * One of `empty`, `text`, `image`, `video`, `quote`. Required on update too.
   * @example "text"
   */
  @IsOneOf(CONTENT_TYPES)
  type!: ContentType;

  /**
   * Style of the content. A given style replaces the stored one whole, its members left out
   * taking their defaults; left out, the stored style stays (the defaults on create).
   */
  @MayBeOmitted()
  @ToInstanceOf(() => ContentStyleDto)
  @NestedObject()
  style?: ContentStyleDto;

  /**
   * Payload of the content; its members depend on `type` (empty: none; text: `html`; image:
   * `url`, `width`, `height`, `alt`; video: `url`, `provider`; quote: `options`, `content`).
   * A member the type does not know is rejected.
   * @example { "html": "<p>Hello</p>" }
   */
  @MayBeOmitted()
  @ToContentData()
  @NestedObject()
  data?: ContentDataDto;
}
