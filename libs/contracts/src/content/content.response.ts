import { ContentStyleResponse } from './content-style.response';
import type { ContentType } from './content-type';

/** A content of a column. */
export class ContentResponse {
  /**
   * Identifier of the content.
   * @example "0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a87"
   */
  _id!: string;

  /**
   * One of `empty`, `text`, `image`, `video`, `quote`.
   * @example "empty"
   */
  type!: ContentType;

  /** The complete style, defaults filled in. */
  style!: ContentStyleResponse;

  /**
   * The type's data members as stored (`{}` when there are none).
   * @example {}
   */
  data!: Record<string, unknown>;
}
