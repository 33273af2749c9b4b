import sharp from 'sharp';

export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp' | 'avif';

/** An image of `width` × `height` in `format`, of noise (so that it compresses little). */
export function image(
  format: ImageFormat,
  width = 64,
  height = 48,
  seed = 1,
  stored = false,
): Promise<Buffer> {
  const channels = 3;
  const pixels = Buffer.alloc(width * height * channels);
  let state = Math.imul(seed, 2654435761) >>> 0;
  for (let i = 0; i < pixels.length; i += 1) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    pixels[i] = state >>> 24;
  }
  const raw = sharp(pixels, { raw: { width, height, channels } });
  // Stored (uncompressed) PNGs of one pixel size have one byte size, whatever their pixels.
  return (
    stored ? raw.png({ compressionLevel: 0, palette: false }) : raw.toFormat(format)
  ).toBuffer();
}

export const CONTENT_TYPES: Record<ImageFormat, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
};
