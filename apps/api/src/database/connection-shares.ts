/**
 * Caps how many pooled connections one holder (an account) may use at once, so that a
 * greedy account queues behind itself instead of taking the pool from everybody else. A holder
 * past its share waits in line, first come first served, until one of its own connections
 * comes back or its time runs out.
 */
export class ConnectionShares {
  private readonly holders = new Map<string, Holder>();

  constructor(private readonly share: number) {}

  /**
   * Resolves with the function that gives the place back, once `holder` is within its share;
   * resolves `undefined` when that did not happen within `waitMs`, or as soon as `abandoned`
   * aborts (the client went away): its place in line goes to whoever is behind it.
   */
  acquire(
    holder: string,
    waitMs: number,
    abandoned?: AbortSignal,
  ): Promise<(() => void) | undefined> {
    const now = this.tryAcquire(holder);
    if (now) return Promise.resolve(now);
    if (abandoned?.aborted) return Promise.resolve(undefined);
    const entry = this.holders.get(holder) ?? { inUse: 0, waiting: [] };
    this.holders.set(holder, entry);
    return new Promise((resolve) => {
      const leaveLine = () => {
        clearTimeout(timer);
        abandoned?.removeEventListener('abort', leaveLine);
        const index = entry.waiting.indexOf(waiter);
        if (index >= 0) entry.waiting.splice(index, 1);
        if (entry.inUse === 0 && entry.waiting.length === 0) this.holders.delete(holder);
        resolve(undefined);
      };
      const waiter: Waiter = {
        grant: () => {
          clearTimeout(timer);
          abandoned?.removeEventListener('abort', leaveLine);
          resolve(this.releaser(holder, entry));
        },
      };
      const timer = setTimeout(leaveLine, waitMs);
      abandoned?.addEventListener('abort', leaveLine, { once: true });
      entry.waiting.push(waiter);
    });
  }

  /** The function that gives the place back, when `holder` is within its share right now. */
  tryAcquire(holder: string): (() => void) | undefined {
    const entry = this.holders.get(holder) ?? { inUse: 0, waiting: [] };
    if (entry.inUse >= this.share) return undefined;
    entry.inUse += 1;
    this.holders.set(holder, entry);
    return this.releaser(holder, entry);
  }

  /** How many places `holder` uses now (for tests and diagnostics). */
  inUse(holder: string): number {
    return this.holders.get(holder)?.inUse ?? 0;
  }

  private releaser(holder: string, entry: Holder): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = entry.waiting.shift();
      // The place passes straight to the next in line: the count stays as it is.
      if (next) next.grant();
      else if (--entry.inUse === 0) this.holders.delete(holder);
    };
  }
}

interface Waiter {
  grant(): void;
}

interface Holder {
  inUse: number;
  waiting: Waiter[];
}
