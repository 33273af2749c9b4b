import { HintVariants } from '../validation/schema-hints';
import { ContentStyleResponse } from './content-style.response';
import type { ContentType } from './content-type';
import { CONTENT_VARIANTS } from './data/content-data';
import type { CONTENT_DATA_CLASSES } from './data/content-data';

/**
 * A content of a column. In the OpenAPI document it is a union discriminated by `type`, each
 * variant with its own `data`, so that a generated client narrows `data` by `type`.
 */
@HintVariants(CONTENT_VARIANTS)
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

/** The `data` of a content of type `T`. */
export type ContentDataOf<T extends ContentType> = InstanceType<(typeof CONTENT_DATA_CLASSES)[T]>;

/**
 * A content response as a union discriminated by `type`, for TypeScript clients: checking
 * `content.type === 'image'` narrows `content.data` to the image's members.
 */
export type TypedContentResponse = {
  [T in ContentType]: Omit<ContentResponse, 'type' | 'data'> & { type: T; data: ContentDataOf<T> };
}[ContentType];
