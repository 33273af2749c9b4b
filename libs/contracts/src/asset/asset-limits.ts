/** The largest asset, in bytes: 10 MiB (413 beyond). */
export const ASSET_BYTES_MAX = 10 * 1024 * 1024;

/** What one account's assets may add up to by default, in bytes: 1 GiB (409 beyond). */
export const ASSET_ACCOUNT_BYTES_DEFAULT = 1024 * 1024 * 1024;

/** The image types an asset may be. */
export const ASSET_CONTENT_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
] as const;

export type AssetContentType = (typeof ASSET_CONTENT_TYPES)[number];
