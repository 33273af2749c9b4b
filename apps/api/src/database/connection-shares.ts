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
   * resolves `undefined` when that did not happen within `waitMs`.
   */
  acquire(holder: string, waitMs: number): Promise<(() => void) | undefined> {
    const now = this.tryAcquire(holder);
    if (now) return Promise.resolve(now);
    const entry = this.holders.get(holder) ?? { inUse: 0, waiting: [] };
    this.holders.set(holder, entry);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        grant: () => {
          clearTimeout(timer);
          resolve(this.releaser(holder, entry));
        },
      };
      const timer = setTimeout(() => {
        entry.waiting.splice(entry.waiting.indexOf(waiter), 1);
        resolve(undefined);
      }, waitMs);
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
