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
 * How many bytes of heavy answers one account may take per second while other accounts use the
 * instance. A heavy answer costs what the others' small ones need, built (a core of
 * PostgreSQL's) or kept from an earlier read (this process's time and the network's, to send
 * it): the largest ones, sent once a second, already hold up about one in a hundred of another
 * account's small reads on a small machine, which is their p99; this keeps them seconds apart.
 * An account alone on the instance is not held back: nobody is waiting for it, and its repeated
 * reads of a large project it does not change build nothing.
 */
export const HEAVY_BYTES_PER_SECOND = 2 * 1024 * 1024;
/** Another account that was admitted this recently is using the instance. */
export const OTHERS_ACTIVE_WITHIN_MS = 2000;
// Bounds the memory of the accounts' heavy budgets; past it, budgets already spent out go.
const MAX_BUDGETS = 10_000;

/**
 * Who may use the database now. Every account holds at most half of the pool's connections,
 * so that the other half always stays for the other accounts; and a heavy read (one whose last
 * answer was several MiB) also needs one of the few heavy places: one per account, and a
 * quarter of the pool for the whole instance, since PostgreSQL building such documents uses a
 * core each and connections do not bound CPU. A heavy answer is charged to its account, built
 * (`charge`) or kept (`admitKept`): while other accounts are active, its next heavy one starts
 * only once its budget of HEAVY_BYTES_PER_SECOND allows. Past its places or its budget a call
 * waits, then is refused with 503 and Retry-After.
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
    const until = Date.now() + waitMs;
    const taken: (() => void)[] = [];
    const leave = () => {
      for (const give of taken.reverse()) give();
    };
    try {
      if (heavy) {
        taken.push(await this.heavyTurn(account, until, abandoned));
        taken.push(await place(this.heavyInstance, INSTANCE, until, abandoned));
      }
      taken.push(await place(this.connections, account, until, abandoned));
    } catch (error) {
      leave();
      throw error;
    }
    return leave;
  }

  /**
   * Admits an answer of `bytes` that was not built for it (kept from an earlier read): it needs
   * no connection, but a heavy one waits for its account's turn and budget as a heavy read
   * does, and is charged. Only the turn is refused past `waitMs` (another heavy read of the
   * account is under way: that is a request too many at once); the budget is waited for,
   * however long, as no deadline runs meanwhile. So an account that reads one request at a
   * time is paced, never refused.
   */
  async admitKept(
    account: string,
    bytes: number,
    waitMs: number,
    abandoned?: AbortSignal,
  ): Promise<void> {
    this.seen(account);
    const give = await this.heavyTurn(account, Date.now() + waitMs, abandoned, Infinity);
    this.charge(account, bytes);
    give();
  }

  /**
   * Charges a heavy answer of `bytes` to the account's budget while other accounts are active
   * (light answers, and those of an account alone, cost nothing).
   */
  charge(account: string, bytes: number): void {
    const now = Date.now();
    if (!this.othersActive(account, now)) return;
    const from = Math.max(now, this.heavyReadyAt.get(account) ?? 0);
    this.heavyReadyAt.delete(account);
    this.heavyReadyAt.set(account, from + (bytes / HEAVY_BYTES_PER_SECOND) * 1000);
    if (this.heavyReadyAt.size > MAX_BUDGETS) {
      for (const [holder, readyAt] of this.heavyReadyAt) {
        if (readyAt <= now) this.heavyReadyAt.delete(holder);
      }
    }
  }

  /**
   * The account's one heavy place, once its budget allows a heavy answer (only while others
   * are active); refused past `until` for the place, past `paceUntil` for the budget.
   */
  private async heavyTurn(
    account: string,
    until: number,
    abandoned: AbortSignal | undefined,
    paceUntil = until,
  ): Promise<() => void> {
    const give = await place(this.heavyPerAccount, account, until, abandoned);
    // Holding it, the account's other heavy reads wait in line: each sees what the one before
    // it was charged.
    const now = Date.now();
    const wait = this.othersActive(account, now) ? (this.heavyReadyAt.get(account) ?? 0) - now : 0;
    if (wait > paceUntil - now) {
      // Refused as when waiting for a place: after the wait, so that a client that does not
      // heed Retry-After gets a refusal per wait, not as many as it can send.
      give();
      await sleep(paceUntil - now, abandoned);
      throw new TooManyConcurrentRequestsError();
    }
    if (wait > 0) await sleep(wait, abandoned);
    if (abandoned?.aborted) {
      give();
      throw new TooManyConcurrentRequestsError();
    }
    return give;
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

/** A place of `holder`'s in `shares`, waited for until `until` at most. */
async function place(
  shares: ConnectionShares,
  holder: string,
  until: number,
  abandoned: AbortSignal | undefined,
): Promise<() => void> {
  const give = await shares.acquire(holder, Math.max(0, until - Date.now()), abandoned);
  if (!give) throw new TooManyConcurrentRequestsError();
  return give;
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
