import { type Readable } from 'node:stream';
import { SizedLru } from '../common/cache/sized-lru';

/** What the bytes kept by one instance may take in all, and one asset's at most. */
const KEPT_BYTES = 32 * 1024 * 1024;
const ENTRY_MAX_BYTES = 1024 * 1024;

/**
 * The bytes of small assets this instance has served, by id: an asset's bytes never change, so
 * a page's images read again and again (every reader of a shared proposal loads them) come from
 * memory after the first read, behind the one lookup that says the asset still exists. Least
 * recently used first out; large assets are always streamed from the store.
 */
export class KeptBytes {
  private readonly kept = new SizedLru<Buffer>(KEPT_BYTES, (_id, bytes) => bytes.length);

  find(id: string): Buffer | undefined {
    return this.kept.get(id);
  }

  /** Whether an asset of `size` bytes is kept once read. */
  keeps(size: number): boolean {
    return size <= ENTRY_MAX_BYTES;
  }

  /** Reads the whole of a stream of `size` bytes into memory and keeps it under `id`. */
  async keep(id: string, stream: Readable, size: number): Promise<Buffer> {
    const bytes = Buffer.allocUnsafeSlow(size);
    let at = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (at + chunk.length > size) break;
      chunk.copy(bytes, at);
      at += chunk.length;
    }
    const whole = at === size ? bytes : bytes.subarray(0, at);
    if (at === size) this.kept.set(id, whole);
    return whole;
  }

  forget(id: string): void {
    this.kept.delete(id);
  }
}
