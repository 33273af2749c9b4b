import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { TooManyLoginAttemptsError } from './errors';
import { type CounterStore, type WindowCount } from '../common/counters/counter-store';
import { SHARED_COUNTERS } from '../common/counters/counters.module';
import { OutageNotice } from '../common/counters/outage-notice';
import { clientAddressKey } from '../common/throttling/client-address';

// A person at one address who mistypes, tries an old password or fights caps lock fails a few
// times in a row without guessing anything: those failures cost nothing.
const FREE_FAILURES_PER_USERNAME_AND_ADDRESS = 5;
// Everybody behind one NAT or proxy (an office, a mobile carrier) shares an address, and their
// honest failures add up; a guesser spraying one password over many usernames goes far past them.
const FREE_FAILURES_PER_ADDRESS = 20;
// A guesser spread over many addresses stays under both counts above, so one username's failures
// over all addresses count too. Its owner signs in from a few places, and those are not slowed
// by it (see LoginAttempt.trusted): the free ones are for his first sign-ins from a new place.
const FREE_FAILURES_PER_USERNAME = 10;
// The wait after the first failure past the free ones: hardly noticed by a person, and each
// further failure doubles it, so a guesser soon waits far longer than he guesses.
const FIRST_WAIT_MS = 1_000;
// The wait stops growing here: someone who has really forgotten a password can still try now and
// then, while a guesser gets only a handful of tries an hour.
const MAX_WAIT_MS = 15 * 60 * 1000;
// The failures of one username at one address are remembered this long from the first of them,
// unless a success clears them: a guesser cannot start afresh by pausing for a while.
const USERNAME_AND_ADDRESS_MEMORY_MS = 24 * 60 * 60 * 1000;
// Nobody's success clears a username's count (the owner signing in would hand the guesser a fresh
// set of free guesses), so it lasts as long as the username's at one address.
const USERNAME_MEMORY_MS = USERNAME_AND_ADDRESS_MEMORY_MS;
// A success never clears an address's count (a guesser would sign in to an account of his own
// between guesses), so it is forgotten sooner: the honest failures of a shared address must not
// pile up over a working day.
const ADDRESS_MEMORY_MS = 60 * 60 * 1000;
// Bounds this process's memory under a flood of made-up usernames or addresses, per count; the
// entries longest untouched go first.
const MAX_TRACKED = 100_000;

/** How one kind of failure count slows the attempts that follow. */
interface BackoffPolicy {
  /** Names its counters in the shared store. */
  readonly name: 'pair' | 'address' | 'username';
  readonly freeFailures: number;
  /** How long failures are remembered, from the first one of a window. */
  readonly memoryMs: number;
}

const PER_USERNAME_AND_ADDRESS: BackoffPolicy = {
  name: 'pair',
  freeFailures: FREE_FAILURES_PER_USERNAME_AND_ADDRESS,
  memoryMs: USERNAME_AND_ADDRESS_MEMORY_MS,
};
const PER_ADDRESS: BackoffPolicy = {
  name: 'address',
  freeFailures: FREE_FAILURES_PER_ADDRESS,
  memoryMs: ADDRESS_MEMORY_MS,
};
const PER_USERNAME: BackoffPolicy = {
  name: 'username',
  freeFailures: FREE_FAILURES_PER_USERNAME,
  memoryMs: USERNAME_MEMORY_MS,
};

/** The wait a count of failures imposes before the next attempt: none while some are free. */
export function waitAfterFailures(failures: number, freeFailures: number): number {
  const past = failures - freeFailures;
  if (past <= 0) return 0;
  // Capped before it is computed, so that a huge count cannot overflow into Infinity.
  const doublings = Math.min(past - 1, Math.ceil(Math.log2(MAX_WAIT_MS / FIRST_WAIT_MS)));
  return Math.min(FIRST_WAIT_MS * 2 ** doublings, MAX_WAIT_MS);
}

/** One sign-in attempt: the key of the username it names and the client's address. */
export interface LoginAttempt {
  readonly usernameKey: string;
  /** As the server sees it (`request.ip`); IPv6 addresses are counted by their /64. */
  readonly address: string | undefined;
  /**
   * Vouched for by the account itself: it comes from an address the account signed in from
   * before, or carries the account's own valid token. It is not held back by the username's
   * failures over all addresses (the owner is never locked out by a guesser), but its own
   * failures count there too.
   */
  readonly trusted?: boolean;
}

interface Failures {
  count: number;
  /** When this window of failures is forgotten. */
  forgetAt: number;
  /** No attempt before this instant. */
  waitUntil: number;
  /** Tells this entry from one made after a success cleared it, for answers still under way. */
  readonly epoch: number;
}

/** What the shared store knows of one count: its failures and the wait they imposed. */
interface SharedFailures {
  readonly failures: WindowCount | undefined;
  readonly wait: WindowCount | undefined;
}

/**
 * The failures of one kind (per username and address, or per address), counted in this process
 * and, with a shared store, also there: a window of failures (`login-failures:…`) and, when they
 * impose a wait, a second window as long as the wait (`login-wait:…`), opened by the failure.
 */
class FailureCounts {
  private readonly entries = new Map<string, Failures>();
  private epochs = 0;

  constructor(
    private readonly policy: BackoffPolicy,
    private readonly shared: CounterStore | null,
    private readonly outage: OutageNotice,
  ) {}

  /** Milliseconds before the next attempt may be made; 0 when it may be made now. */
  waitMs(id: string, now: number): number {
    const entry = this.current(id, now);
    return entry ? Math.max(0, entry.waitUntil - now) : 0;
  }

  recordFailure(id: string): void {
    const now = Date.now();
    let entry = this.current(id, now);
    if (!entry) {
      entry = {
        count: 0,
        forgetAt: now + this.policy.memoryMs,
        waitUntil: 0,
        epoch: ++this.epochs,
      };
    } else if (now >= entry.forgetAt) {
      // The window is over; only a wait of its last failure was keeping the entry.
      entry.count = 0;
      entry.forgetAt = now + this.policy.memoryMs;
    }
    entry.count += 1;
    const waitMs = waitAfterFailures(entry.count, this.policy.freeFailures);
    if (waitMs > 0) entry.waitUntil = Math.max(entry.waitUntil, now + waitMs);
    this.remember(id, entry);
    if (this.shared) void this.shareFailure(this.shared, id, entry.epoch);
  }

  clear(id: string): void {
    this.entries.delete(id);
    if (!this.shared) return;
    for (const key of this.sharedKeys(id)) {
      this.shared.reset(key).catch((error: unknown) => this.outage.failed(error));
    }
  }

  /** The shared store's knowledge of one count; rejects when the store does. */
  async peekShared(shared: CounterStore, id: string): Promise<SharedFailures> {
    const [failuresKey, waitKey] = this.sharedKeys(id);
    const [failures, wait] = await Promise.all([shared.peek(failuresKey), shared.peek(waitKey)]);
    return { failures, wait };
  }

  /** Replaces this process's count by the shared one (which includes every instance's). */
  adopt(id: string, { failures, wait }: SharedFailures): void {
    if (!failures && !wait) {
      this.entries.delete(id);
      return;
    }
    const now = Date.now();
    this.remember(id, {
      count: failures?.count ?? 0,
      forgetAt: now + (failures?.resetInMs ?? 0),
      waitUntil: wait ? now + wait.resetInMs : 0,
      epoch: this.entries.get(id)?.epoch ?? ++this.epochs,
    });
  }

  private async shareFailure(shared: CounterStore, id: string, epoch: number): Promise<void> {
    const [failuresKey, waitKey] = this.sharedKeys(id);
    try {
      const failures = await shared.increment(failuresKey, this.policy.memoryMs);
      // An answer for an entry that a success has cleared since changes nothing.
      if (this.entries.get(id)?.epoch !== epoch) return;
      const waitMs = waitAfterFailures(failures.count, this.policy.freeFailures);
      // A wait window still open (a concurrent failure on another instance) is kept as it is.
      const wait = waitMs > 0 ? await shared.increment(waitKey, waitMs) : undefined;
      const entry = this.entries.get(id);
      if (!entry || entry.epoch !== epoch) return;
      // Answers may come back out of order: they add what other instances counted, never undo
      // a failure counted here.
      const now = Date.now();
      entry.count = Math.max(entry.count, failures.count);
      entry.forgetAt = now + failures.resetInMs;
      if (wait) entry.waitUntil = Math.max(entry.waitUntil, now + wait.resetInMs);
    } catch (error) {
      // The local count goes on alone until the store answers again.
      this.outage.failed(error);
    }
  }

  /** Usernames are not kept in the shared store as such: a digest names their counters. */
  private sharedKeys(id: string): [failures: string, wait: string] {
    const name =
      this.policy.name === 'address'
        ? `address:${id}`
        : `${this.policy.name}:${createHash('sha256').update(id).digest('hex')}`;
    return [`login-failures:${name}`, `login-wait:${name}`];
  }

  private remember(id: string, entry: Failures): void {
    this.entries.delete(id);
    this.entries.set(id, entry);
    if (this.entries.size > MAX_TRACKED) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }

  private current(id: string, now: number): Failures | undefined {
    const entry = this.entries.get(id);
    if (entry && now >= entry.forgetAt && now >= entry.waitUntil) {
      this.entries.delete(id);
      return undefined;
    }
    return entry;
  }
}

/**
 * Slows password guessing without giving anyone a switch to lock an account's owner out. Failures
 * are counted per username and client address, per client address over all usernames, and per
 * username over all addresses; past a few free ones each failure imposes a wait before the next
 * attempt (from that address for that username, from that address for any, or for that username
 * from anywhere), doubling with every further failure up to a cap, during which attempts are
 * answered 429 with `Retry-After`. The username's wait does not hold back an attempt the account
 * vouches for (`trusted`: from an address it signed in from before, or with its own token), so a
 * guesser spread over many addresses is slowed while the owner still gets in. A success clears
 * the count of its username at its address (not the address's, nor the username's).
 *
 * The checks are synchronous and read this process's counts. With REDIS_URL the counts are
 * shared: every failure and success is also written to Redis, and before each request that
 * checks a password `refresh` (run by LoginAttemptsRefresh) replaces the local counts by the
 * shared ones, so every instance enforces one budget. While Redis is unreachable each instance
 * goes on with its own counts (logged once).
 */
@Injectable()
export class LoginAttemptLimiter {
  private readonly outage = new OutageNotice(
    new Logger('LoginAttempts'),
    'failed sign-ins are counted per instance',
  );
  private readonly perUsernameAndAddress: FailureCounts;
  private readonly perAddress: FailureCounts;
  private readonly perUsername: FailureCounts;

  constructor(
    @Optional() @Inject(SHARED_COUNTERS) private readonly shared: CounterStore | null = null,
  ) {
    this.perUsernameAndAddress = new FailureCounts(PER_USERNAME_AND_ADDRESS, shared, this.outage);
    this.perAddress = new FailureCounts(PER_ADDRESS, shared, this.outage);
    this.perUsername = new FailureCounts(PER_USERNAME, shared, this.outage);
  }

  /** Throws TooManyLoginAttemptsError while a count makes this attempt wait. */
  assertAllowed(attempt: LoginAttempt): void {
    const now = Date.now();
    const { pair, address } = ids(attempt);
    const waitMs = Math.max(
      this.perUsernameAndAddress.waitMs(pair, now),
      this.perAddress.waitMs(address, now),
    );
    if (waitMs > 0) throw new TooManyLoginAttemptsError(Math.ceil(waitMs / 1000), 'address');
    const usernameWaitMs = attempt.trusted ? 0 : this.usernameWaitMs(attempt);
    if (usernameWaitMs > 0) {
      throw new TooManyLoginAttemptsError(Math.ceil(usernameWaitMs / 1000), 'username');
    }
  }

  /**
   * How long the username's failures over all addresses make an attempt that the account does
   * not vouch for wait; 0 when they do not. While it is not 0, whether the attempt is trusted
   * is worth finding out.
   */
  usernameWaitMs(attempt: LoginAttempt): number {
    return this.perUsername.waitMs(attempt.usernameKey, Date.now());
  }

  /**
   * Before the (slow) password check: counts the attempt as a failure of its username at its
   * address, and (unless trusted) of its username, so that parallel guesses cannot all pass
   * while their hashes are computed. `recordSuccess` takes back the first; `recordFailure` adds
   * the address's count.
   */
  recordAttempt(attempt: LoginAttempt): void {
    this.perUsernameAndAddress.recordFailure(ids(attempt).pair);
    if (!attempt.trusted) this.perUsername.recordFailure(attempt.usernameKey);
  }

  /**
   * After a wrong password or an unknown username: the failure counts for its address too, and
   * for its username when it was trusted (and so not counted before the check).
   */
  recordFailure(attempt: LoginAttempt): void {
    this.perAddress.recordFailure(ids(attempt).address);
    if (attempt.trusted) this.perUsername.recordFailure(attempt.usernameKey);
  }

  recordSuccess(attempt: LoginAttempt): void {
    this.perUsernameAndAddress.clear(ids(attempt).pair);
  }

  /** Takes over the shared counts of this attempt (nothing to do without Redis). */
  async refresh(attempt: LoginAttempt): Promise<void> {
    if (!this.shared) return;
    const { pair, address } = ids(attempt);
    let known: SharedFailures[];
    try {
      known = await Promise.all([
        this.perUsernameAndAddress.peekShared(this.shared, pair),
        this.perAddress.peekShared(this.shared, address),
        this.perUsername.peekShared(this.shared, attempt.usernameKey),
      ]);
    } catch (error) {
      // Keep the local counts: they are the best knowledge left.
      this.outage.failed(error);
      return;
    }
    this.outage.succeeded();
    this.perUsernameAndAddress.adopt(pair, known[0]);
    this.perAddress.adopt(address, known[1]);
    this.perUsername.adopt(attempt.usernameKey, known[2]);
  }
}

function ids({ usernameKey, address }: LoginAttempt): { pair: string; address: string } {
  const addressKey = clientAddressKey(address);
  // An address key holds no newline, so no two pairs share an id.
  return { pair: `${addressKey}\n${usernameKey}`, address: addressKey };
}
