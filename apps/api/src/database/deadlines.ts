/**
 * Deadlines of the calls in flight, checked by one timer for all of them: a timer of its own
 * for every statement costs more than the statement's share of a busy second. A deadline fires
 * at most one tick late.
 */
export class Deadlines {
  private readonly pending = new Set<Pending>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly tickMs: number) {}

  /** Calls `onExpired` once `ms` have passed, unless the returned function is called first. */
  watch(ms: number, onExpired: () => void): () => void {
    const entry: Pending = { at: Date.now() + ms, onExpired };
    this.pending.add(entry);
    if (!this.timer) {
      this.timer = setInterval(() => this.sweep(), this.tickMs);
      this.timer.unref();
    }
    return () => this.pending.delete(entry);
  }

  private sweep(): void {
    const now = Date.now();
    for (const entry of this.pending) {
      if (entry.at > now) continue;
      this.pending.delete(entry);
      entry.onExpired();
    }
    if (this.pending.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}

interface Pending {
  readonly at: number;
  readonly onExpired: () => void;
}
