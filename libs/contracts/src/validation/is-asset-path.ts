/** Where the service serves an uploaded asset's bytes: `/assets/<id>`. */
export const ASSET_PATH_PREFIX = '/assets/';

const ASSET_PATH = /^\/assets\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The path of an asset uploaded to this service (`/assets/<id>`, the id in lower case), which an
 * image's `url` and a `backgroundImage` may be instead of an absolute URL. Whether the writer
 * may name that asset is the server's to check.
 */
export function isAssetPath(value: unknown): value is string {
  return typeof value === 'string' && ASSET_PATH.test(value);
}

/** The asset's id in an asset path. */
export function assetIdOf(path: string): string {
  return path.slice(ASSET_PATH_PREFIX.length);
}

/** The pattern of an asset path, for the OpenAPI document. */
export const ASSET_PATH_SCHEMA = {
  type: 'string',
  pattern: ASSET_PATH.source,
} as const;
