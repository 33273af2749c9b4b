import type Sharp from 'sharp';
import { ASSET_CONTENT_TYPES, type AssetContentType } from '@layout/contracts';
import { UnsupportedImageError } from '../asset-errors';

/** The image types the service keeps. */
export const ACCEPTED_IMAGE_TYPES = ASSET_CONTENT_TYPES;

type ImageType = AssetContentType;

/** What the bytes are, as decoded. */
export interface ProbedImage {
  readonly contentType: ImageType;
  readonly width: number;
  readonly height: number;
}

/** A PNG ends with its IEND chunk: an empty chunk, its type, and its fixed CRC. */
const PNG_END = Buffer.from([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);

/**
 * Images are decoded one at a time: each holds a native thread and its buffers, and the other
 * core stays with the event loop.
 */
const DECODES_AT_ONCE = 1;

let libvips: Promise<typeof Sharp> | undefined;

/**
 * sharp, loaded by the first upload rather than at start: libvips and its native library weigh
 * on every instance's memory, and most instances decode no image between restarts.
 */
function loadSharp(): Promise<typeof Sharp> {
  libvips ??= import('sharp').then(({ default: sharp }) => {
    // libvips keeps no decoded image between requests (each upload is seen once) and decodes
    // each with one thread: what an upload costs stays bounded, and the event loop keeps its
    // cores.
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  });
  return libvips;
}

let decoding = 0;
const waiting: (() => void)[] = [];

async function oneOfFewDecodes<T>(work: () => Promise<T>): Promise<T> {
  if (decoding >= DECODES_AT_ONCE) await new Promise<void>((go) => waiting.push(go));
  decoding += 1;
  try {
    return await work();
  } finally {
    decoding -= 1;
    waiting.shift()?.();
  }
}

/** The accepted types by the name libvips gives their format (AVIF is HEIF with AV1 inside). */
const TYPES_BY_FORMAT: Readonly<Record<string, ImageType>> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

function typeOf(format: string | undefined, compression: string | undefined) {
  if (format === 'heif') return compression === 'av1' ? 'image/avif' : undefined;
  return format === undefined ? undefined : TYPES_BY_FORMAT[format];
}

/**
 * Checks that `file` is a whole, well-formed image of `declared` type, from its bytes, with
 * libvips (sharp): the format from the file's signature and header, then every pixel decoded
 * (of every frame, for an animation) in sequence, without keeping the image, an error or a
 * truncation refusing it. A PNG must also end with its IEND chunk, which the decoder does not
 * read. Answers the image's type and pixel size.
 */
export function probeImage(file: string, declared: string, tail: Buffer): Promise<ProbedImage> {
  return oneOfFewDecodes(async () => {
    const sharp = await loadSharp();
    const options = { failOn: 'error', sequentialRead: true } as const;
    let metadata: Sharp.Metadata;
    try {
      metadata = await sharp(file, options).metadata();
    } catch {
      throw new UnsupportedImageError(
        `The body is not an image of an accepted type (${ACCEPTED_IMAGE_TYPES.join(', ')})`,
      );
    }
    const type = typeOf(metadata.format, metadata.compression);
    if (type === undefined) {
      throw new UnsupportedImageError(
        `The body is not an image of an accepted type (${ACCEPTED_IMAGE_TYPES.join(', ')})`,
      );
    }
    if (type !== declared) {
      throw new UnsupportedImageError(`The body is an ${type} image, not ${declared}`);
    }
    const whole = type !== 'image/png' || tail.subarray(-PNG_END.length).equals(PNG_END);
    const pages = (metadata.pages ?? 1) > 1 ? { pages: -1 } : {};
    const decoded =
      whole &&
      (await sharp(file, { ...options, ...pages })
        .stats()
        .then(
          () => true,
          () => false,
        ));
    if (!decoded)
      throw new UnsupportedImageError(`The body is not a whole, well-formed ${type} image`);
    const { width, height } = metadata;
    if (width === undefined || height === undefined) {
      throw new UnsupportedImageError(`The body is not a whole, well-formed ${type} image`);
    }
    return { contentType: type, width, height: metadata.pageHeight ?? height };
  });
}
