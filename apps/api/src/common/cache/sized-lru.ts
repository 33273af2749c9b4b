/**
 * A map bounded by the total size of what it holds (bytes, characters: `sizeOf` says), in this
 * process: past its budget the least recently used entries go first. For values that can be
 * worked out again from their key, so that losing one costs time, never correctness.
 */
export class SizedLru<V> {
  private readonly entries = new Map<string, V>();
  private used = 0;

  constructor(
    private readonly budget: number,
    private readonly sizeOf: (key: string, value: V) => number,
  ) {}

  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: string, value: V): void {
    const old = this.entries.get(key);
    if (old !== undefined) this.used -= this.sizeOf(key, old);
    this.entries.delete(key);
    this.entries.set(key, value);
    this.used += this.sizeOf(key, value);
    for (const [oldest, kept] of this.entries) {
      if (this.used <= this.budget) break;
      this.entries.delete(oldest);
      this.used -= this.sizeOf(oldest, kept);
    }
  }

  /** Forgets the entry of `key`, if there is one. */
  delete(key: string): void {
    const value = this.entries.get(key);
    if (value === undefined) return;
    this.entries.delete(key);
    this.used -= this.sizeOf(key, value);
  }

  /** The total size of what it holds. */
  get size(): number {
    return this.used;
  }
}
