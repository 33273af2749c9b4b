import { type HeaderObject } from '@nestjs/swagger';

/** An asset as its upload answers it. */
export const ASSET_EXAMPLE = {
  _id: '5f0c6a1e-2b7d-4c3e-9a8f-1d2e3f4a5b6c',
  url: '/assets/5f0c6a1e-2b7d-4c3e-9a8f-1d2e3f4a5b6c',
  contentType: 'image/png',
  size: 204800,
  width: 1200,
  height: 800,
  sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  createdAt: '2026-11-29T10:15:30.000Z',
};

export const ASSET_LIST_ETAG: HeaderObject = {
  description:
    'Strong entity tag of this page: send it in `If-None-Match` to read the page only when it ' +
    'changed.',
  required: true,
  schema: { type: 'string', example: '"a6f1ed002ab5595859014ebf0951522d9"' },
};

export const NEXT_ASSETS_LINK: HeaderObject = {
  description: 'RFC 8288 link to the next page, present when more assets follow.',
  required: false,
  schema: { type: 'string', pattern: '^</assets\\?limit=\\d+&after=[0-9a-f-]+>; rel="next"$' },
};

/** What a read of an asset's bytes carries. */
export const ASSET_READ_HEADERS: Record<string, HeaderObject> = {
  ETag: {
    description: "The SHA-256 of the asset's bytes, quoted.",
    required: true,
    schema: { type: 'string', pattern: '^"[0-9a-f]{64}"$' },
  },
  'Cache-Control': {
    description: 'The bytes under an id never change: anyone may keep them a year.',
    required: true,
    schema: { type: 'string', enum: ['public, max-age=31536000, immutable'] },
  },
  'Accept-Ranges': {
    description: 'A range of the bytes may be asked for.',
    required: true,
    schema: { type: 'string', enum: ['bytes'] },
  },
};
