/**
 * What an instance keeps of the database for a while, which notices from any instance (a
 * token revoked, a membership changed) make it drop: at most `max` entries, the oldest dropped
 * first, each for at most `ttlMs`. A lookup in the database takes `generation()` before it
 * starts and hands it to `set` with what it found: anything dropped meanwhile moved the
 * generation on, and what the lookup read, perhaps before the change, is not kept.
 */
export class NoticedEntries<V> {
  private readonly entries = new Map<string, { readonly value: V; readonly until: number }>();
  private current = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly max: number,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (Date.now() >= entry.until) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Taken before a lookup in the database, and handed to `set` with what it found. */
  generation(): number {
    return this.current;
  }

  /** Keeps `value`, unless something was dropped since `lookedUpAt`; at most until `until`. */
  set(key: string, value: V, lookedUpAt: number, until = Infinity): void {
    if (lookedUpAt !== this.current) return;
    if (this.entries.size >= this.max) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, until: Math.min(Date.now() + this.ttlMs, until) });
  }

  /** Drops the entries whose key and value `drops` names. */
  drop(drops: (key: string, value: V) => boolean): void {
    this.current += 1;
    for (const [key, entry] of this.entries) {
      if (drops(key, entry.value)) this.entries.delete(key);
    }
  }

  dropKey(key: string): void {
    this.current += 1;
    this.entries.delete(key);
  }

  clear(): void {
    this.current += 1;
    this.entries.clear();
  }
}
