import { TooManyConcurrentRequestsError } from '../common/errors';
import { ConnectionShares } from './connection-shares';

/** The places shared by every account of the instance are held under one key. */
const INSTANCE = '';
/**
 * How many bytes of heavy answers one account may have this instance build per second: one
 * project at its size limit. Building is what costs (a core of PostgreSQL's); an editor reads
 * a large project rarely, and revalidates it with If-None-Match, which builds nothing.
 */
export const HEAVY_BYTES_PER_SECOND = 8 * 1024 * 1024;
// Bounds the memory of the accounts' heavy budgets; past it, budgets already spent out go.
const MAX_BUDGETS = 10_000;

/**
 * Who may use the database now. Every account holds at most half of the pool's connections,
 * so that the other half always stays for the other accounts; and a heavy read (one whose last
 * answer was several MiB) also needs one of the few heavy places: one per account, and a
 * quarter of the pool for the whole instance, since PostgreSQL building such documents uses a
 * core each and connections do not bound CPU. What an account's heavy reads built is
 * charged to it (`charge`): its next heavy read starts only once its budget of
 * HEAVY_BYTES_PER_SECOND allows. Past its places or its budget a call waits, then is refused
 * with 503 and Retry-After.
 */
export class Admission {
  private readonly connections: ConnectionShares;
  private readonly heavyPerAccount = new ConnectionShares(1);
  private readonly heavyInstance: ConnectionShares;
  /** By account: the time from which its next heavy read may start. */
  private readonly heavyReadyAt = new Map<string, number>();

  constructor(poolSize: number) {
    this.connections = new ConnectionShares(accountShare(poolSize));
    this.heavyInstance = new ConnectionShares(Math.max(1, Math.floor(poolSize / 4)));
  }

  /**
   * The function that gives the place back, when a light call is admitted right away (the
   * usual case, without a promise); undefined when it would have to wait: then `admit`.
   */
  tryAdmit(account: string, heavy: boolean): (() => void) | undefined {
    return heavy ? undefined : this.connections.tryAcquire(account);
  }

  /**
   * Resolves with the function that gives the places back; refuses after `waitMs`, or at once
   * when `abandoned` aborts (the client went away), so that a gone client waits in no line.
   */
  async admit(
    account: string,
    heavy: boolean,
    waitMs: number,
    abandoned?: AbortSignal,
  ): Promise<() => void> {
    const startedAt = Date.now();
    const left = () => Math.max(0, waitMs - (Date.now() - startedAt));
    const taken: (() => void)[] = [];
    const leave = () => {
      for (const give of taken.reverse()) give();
    };
    const places: [ConnectionShares, string][] = heavy
      ? [
          [this.heavyPerAccount, account],
          [this.heavyInstance, INSTANCE],
          [this.connections, account],
        ]
      : [[this.connections, account]];
    for (const [shares, holder] of places) {
      const give = await shares.acquire(holder, left(), abandoned);
      if (!give) {
        leave();
        throw new TooManyConcurrentRequestsError();
      }
      taken.push(give);
      // Holding the account's one heavy place, wait for its budget (no other place is held).
      if (shares === this.heavyPerAccount) {
        const wait = (this.heavyReadyAt.get(account) ?? 0) - Date.now();
        if (wait > left()) {
          // Refused as when waiting for a place: after the wait, so that a client that does not
          // heed Retry-After gets a refusal per wait, not as many as it can send.
          leave();
          await sleep(left(), abandoned);
          throw new TooManyConcurrentRequestsError();
        }
        if (wait > 0) await sleep(wait, abandoned);
        if (abandoned?.aborted) {
          leave();
          throw new TooManyConcurrentRequestsError();
        }
      }
    }
    return leave;
  }

  /** Charges a heavy answer of `bytes` to the account's budget (light answers cost nothing). */
  charge(account: string, bytes: number): void {
    const now = Date.now();
    const from = Math.max(now, this.heavyReadyAt.get(account) ?? 0);
    this.heavyReadyAt.delete(account);
    this.heavyReadyAt.set(account, from + (bytes / HEAVY_BYTES_PER_SECOND) * 1000);
    if (this.heavyReadyAt.size > MAX_BUDGETS) {
      for (const [holder, readyAt] of this.heavyReadyAt) {
        if (readyAt <= now) this.heavyReadyAt.delete(holder);
      }
    }
  }
}

/** Waits `ms`, or less when `abandoned` aborts. */
function sleep(ms: number, abandoned: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      abandoned?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    abandoned?.addEventListener('abort', done, { once: true });
  });
}

/** Half the pool, so that the other half always stays for the other accounts. */
export function accountShare(poolSize: number): number {
  return Math.max(1, Math.floor(poolSize / 2));
}
