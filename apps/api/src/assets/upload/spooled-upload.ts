import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AssetTooLargeError } from '../asset-errors';

/** How many of an upload's last bytes are kept for the checks of a format's end. */
const TAIL_BYTES = 16;

/** An upload written out whole: its file, size, SHA-256 and last bytes. */
export interface SpooledUpload {
  readonly file: string;
  readonly size: number;
  readonly sha256: string;
  readonly tail: Buffer;
}

/** Counts, hashes and keeps the end of what passes; refuses anything past `maxBytes`. */
class UploadMeter extends Transform {
  size = 0;
  tail = Buffer.alloc(0);
  private readonly hash = createHash('sha256');

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      done(new AssetTooLargeError(this.maxBytes));
      return;
    }
    this.hash.update(chunk);
    this.tail = Buffer.concat([this.tail, chunk.subarray(-TAIL_BYTES)]).subarray(-TAIL_BYTES);
    done(null, chunk);
  }

  get sha256(): string {
    return this.hash.digest('hex');
  }
}

/**
 * Writes an upload's body to a file of `folder` as it arrives, chunk by chunk (memory does not
 * grow with its size), hashing it on the way. Whatever stops it half-way (more than
 * `maxBytes`, the client gone, the disk) removes the file and throws.
 */
export async function spoolUpload(
  body: Readable,
  folder: string,
  maxBytes: number,
): Promise<SpooledUpload> {
  await mkdir(folder, { recursive: true });
  const file = join(folder, randomUUID());
  const meter = new UploadMeter(maxBytes);
  try {
    await pipeline(body, meter, createWriteStream(file, { flags: 'wx' }));
  } catch (error) {
    await rm(file, { force: true });
    throw error;
  }
  return { file, size: meter.size, sha256: meter.sha256, tail: meter.tail };
}
