import { TooManyConcurrentRequestsError } from '../common/errors';
import { ConnectionShares } from './connection-shares';

/**
 * Who runs a call made outside any account's request (none touch the tree today): such calls
 * share one place in line, and are nobody else's work to make room for.
 */
export const NO_ACCOUNT = '';
/** The places shared by every account of the instance are held under one key. */
const INSTANCE = '';
/**
 * How many bytes of heavy answers one account may have this instance build per second: one
 * project at its size limit. Building is what costs (a core of PostgreSQL's); an editor reads
 * a large project rarely, and revalidates it with If-None-Match, which builds nothing.
 */
export const HEAVY_BYTES_PER_SECOND = 8 * 1024 * 1024;
/**
 * While other accounts use the instance, the share of the time one account's heavy reads may
 * take besides: after a heavy read that took t, its next one starts t × (1 − share) / share
 * later, if that is later than its bytes allow. On a slow or busy machine a heavy answer takes
 * longer to build, and a budget in bytes alone would let one account keep a core busy while the
 * others wait for it. An account alone on the instance keeps the budget in bytes: then nobody
 * is waiting.
 */
export const HEAVY_TIME_SHARE = 0.2;
/** Another account that was admitted this recently is using the instance. */
export const OTHERS_ACTIVE_WITHIN_MS = 2000;
// Bounds the memory of the accounts' heavy budgets; past it, budgets already spent out go.
const MAX_BUDGETS = 10_000;

/**
 * Who may use the database now. Every account holds at most half of the pool's connections,
 * so that the other half always stays for the other accounts; and a heavy read (one whose last
 * answer was several MiB) also needs one of the few heavy places: one per account, and a
 * quarter of the pool for the whole instance, since PostgreSQL building such documents uses a
 * core each and connections do not bound CPU. What an account's heavy reads built is
 * charged to it (`charge`): its next heavy read starts only once its budget of
 * HEAVY_BYTES_PER_SECOND allows, and while other accounts are active, HEAVY_TIME_SHARE too.
 * Past its places or its budget a call waits, then is refused with 503 and Retry-After.
 */
export class Admission {
  private readonly connections: ConnectionShares;
  private readonly heavyPerAccount = new ConnectionShares(1);
  private readonly heavyInstance: ConnectionShares;
  /** By account: the time from which its next heavy read may start. */
  private readonly heavyReadyAt = new Map<string, number>();
  /** The account admitted last, and the last one admitted before it that is not that one. */
  private latestAccount = NO_ACCOUNT;
  private latestAt = -Infinity;
  private previousAccount = NO_ACCOUNT;
  private previousAt = -Infinity;

  constructor(poolSize: number) {
    this.connections = new ConnectionShares(accountShare(poolSize));
    this.heavyInstance = new ConnectionShares(Math.max(1, Math.floor(poolSize / 4)));
  }

  /**
   * The function that gives the place back, when a light call is admitted right away (the
   * usual case, without a promise); undefined when it would have to wait: then `admit`.
   */
  tryAdmit(account: string, heavy: boolean): (() => void) | undefined {
    this.seen(account);
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
    this.seen(account);
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

  /**
   * Charges a heavy answer of `bytes`, which took `tookMs` to build and receive, to the
   * account's budget (light answers cost nothing).
   */
  charge(account: string, bytes: number, tookMs: number): void {
    const now = Date.now();
    const from = Math.max(now, this.heavyReadyAt.get(account) ?? 0);
    const byBytes = (bytes / HEAVY_BYTES_PER_SECOND) * 1000;
    const byTime = this.othersActive(account, now)
      ? (tookMs * (1 - HEAVY_TIME_SHARE)) / HEAVY_TIME_SHARE
      : 0;
    this.heavyReadyAt.delete(account);
    this.heavyReadyAt.set(account, from + Math.max(byBytes, byTime));
    if (this.heavyReadyAt.size > MAX_BUDGETS) {
      for (const [holder, readyAt] of this.heavyReadyAt) {
        if (readyAt <= now) this.heavyReadyAt.delete(holder);
      }
    }
  }

  /** Notes that the account is using the instance (calls outside an account do not count). */
  private seen(account: string): void {
    if (account === NO_ACCOUNT) return;
    if (this.latestAccount !== account) {
      this.previousAccount = this.latestAccount;
      this.previousAt = this.latestAt;
      this.latestAccount = account;
    }
    this.latestAt = Date.now();
  }

  /** Whether an account other than this one was admitted within OTHERS_ACTIVE_WITHIN_MS. */
  private othersActive(account: string, now: number): boolean {
    const [other, at] =
      this.latestAccount === account
        ? [this.previousAccount, this.previousAt]
        : [this.latestAccount, this.latestAt];
    return other !== NO_ACCOUNT && now - at <= OTHERS_ACTIVE_WITHIN_MS;
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
