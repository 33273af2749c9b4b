import { Inject, Injectable } from '@nestjs/common';
import { SizedLru } from '../../common/cache/sized-lru';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';

/** The bytes of one resource's representation, and the revision they were built at. */
interface Kept {
  readonly revision: number;
  readonly bytes: Buffer;
}

/**
 * One document may take at most this share of the budget, so that a large one never pushes
 * out all the others. With the default budget it still admits the largest project allowed.
 */
const ENTRY_SHARE = 1 / 4;
/** What an entry costs besides its bytes and its key: the objects and the map's slot. */
const ENTRY_OVERHEAD_BYTES = 256;

/**
 * The documents this instance has built, as UTF-8 bytes, one revision per resource (the newest
 * built: an older one is never current again), within READ_CACHE_BYTES, the least recently
 * used going first. Bytes rather than text: they are sent without being encoded again, and
 * they are what the budget counts (they live outside the JavaScript heap). A value that can be
 * built again, so losing one costs time, never correctness; whether the kept revision is still
 * the current one is for the reader to check (CachedReads).
 */
@Injectable()
export class DocumentCache {
  private readonly kept: SizedLru<Kept>;
  private readonly entryMaxBytes: number;

  constructor(@Inject(APP_CONFIG) config: Pick<AppConfig, 'readCacheBytes'>) {
    this.kept = new SizedLru<Kept>(
      config.readCacheBytes,
      (resource, kept) => resource.length + kept.bytes.length + ENTRY_OVERHEAD_BYTES,
    );
    this.entryMaxBytes = Math.floor(config.readCacheBytes * ENTRY_SHARE);
  }

  /** Whether some revision of the resource is kept. */
  holds(resource: string): boolean {
    return this.kept.get(resource) !== undefined;
  }

  /** The bytes of the resource at `revision`, when they are kept. */
  find(resource: string, revision: number): Buffer | undefined {
    const kept = this.kept.get(resource);
    return kept?.revision === revision ? kept.bytes : undefined;
  }

  /**
   * Keeps the document of the resource at `revision` in place of any other revision, and
   * returns its bytes; undefined when it is too large to keep (then no revision stays kept).
   */
  keep(resource: string, revision: number, json: string): Buffer | undefined {
    // A string has at most as many characters as its UTF-8 bytes: no need to encode one that
    // is too long already.
    const bytes = json.length <= this.entryMaxBytes ? ownBytes(json) : undefined;
    if (bytes === undefined || bytes.length > this.entryMaxBytes) {
      this.kept.delete(resource);
      return undefined;
    }
    this.kept.set(resource, { revision, bytes });
    return bytes;
  }
}

/**
 * The UTF-8 bytes of `json` in memory of their own. Node cuts small Buffers out of a shared
 * pool, which one kept slice would hold whole, however little of it the budget counts.
 */
function ownBytes(json: string): Buffer {
  const bytes = Buffer.from(json, 'utf8');
  if (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length) return bytes;
  const own = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(own);
  return own;
}
