import { DATE_TIME_SCHEMA, HintSchema } from '../validation/schema-hints';
import { ASSET_CONTENT_TYPES, type AssetContentType } from './asset-limits';

/** An uploaded image, as its upload and the listing answer it. */
export class AssetResponse {
  /**
   * Identifier of the asset: unguessable (122 random bits).
   * @example "5f0c6a1e-2b7d-4c3e-9a8f-1d2e3f4a5b6c"
   */
  _id!: string;

  /**
   * Where its bytes are served, relative to the service: `/assets/<_id>`, which an image's `url`
   * and a `backgroundImage` may name.
   * @example "/assets/5f0c6a1e-2b7d-4c3e-9a8f-1d2e3f4a5b6c"
   */
  url!: string;

  /**
   * The image's type, as read from its bytes.
   * @example "image/png"
   */
  @HintSchema({ type: 'string', enum: ASSET_CONTENT_TYPES })
  contentType!: AssetContentType;

  /**
   * Its size in bytes.
   * @example 204800
   */
  size!: number;

  /**
   * Its width in pixels.
   * @example 1200
   */
  width!: number;

  /**
   * Its height in pixels.
   * @example 800
   */
  height!: number;

  /**
   * The SHA-256 of its bytes, in hex (also its `ETag`).
   * @example "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
   */
  @HintSchema({ type: 'string', pattern: '^[0-9a-f]{64}$' })
  sha256!: string;

  /**
   * When it was uploaded (ISO 8601 date-time, UTC).
   * @example "2026-11-29T10:15:30.000Z"
   */
  @HintSchema(DATE_TIME_SCHEMA)
  createdAt!: string;
}
