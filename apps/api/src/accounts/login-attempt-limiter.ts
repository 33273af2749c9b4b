import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { TooManyLoginAttemptsError } from '../common/errors';
import { type CounterStore, type WindowCount } from '../common/counters/counter-store';
import { SHARED_COUNTERS } from '../common/counters/counters.module';
import { OutageNotice } from '../common/counters/outage-notice';

const MAX_FAILURES = 10;
const WINDOW_MS = 15 * 60 * 1000;
// Bounds memory under a flood of made-up usernames; the oldest entries go first.
const MAX_TRACKED_USERNAMES = 100_000;

interface Failures {
  count: number;
  windowStartedAt: number;
}

/**
 * Slows password guessing against one username: after MAX_FAILURES wrong passwords within
 * WINDOW_MS, further attempts for that username are refused until the window has passed.
 *
 * The checks are synchronous and read this process's counts. With REDIS_URL the counts are
 * shared: every failure and success is also written to Redis, and before each token request
 * `refresh` (run by LoginAttemptsRefresh) replaces the local count by the shared one, so every
 * instance enforces one budget. While Redis is unreachable each instance goes on with its own
 * counts (logged once).
 */
@Injectable()
export class LoginAttemptLimiter {
  private readonly failures = new Map<string, Failures>();
  private readonly outage = new OutageNotice(
    new Logger('LoginAttempts'),
    'failed sign-ins are counted per instance',
  );

  constructor(
    @Optional() @Inject(SHARED_COUNTERS) private readonly shared: CounterStore | null = null,
  ) {}

  assertAllowed(usernameKey: string): void {
    const entry = this.current(usernameKey);
    if (entry && entry.count >= MAX_FAILURES) {
      const retryAfterMs = entry.windowStartedAt + WINDOW_MS - Date.now();
      throw new TooManyLoginAttemptsError(Math.max(1, Math.ceil(retryAfterMs / 1000)));
    }
  }

  recordFailure(usernameKey: string): void {
    const entry = this.current(usernameKey) ?? { count: 0, windowStartedAt: Date.now() };
    entry.count += 1;
    this.remember(usernameKey, entry);
    if (this.shared) {
      this.shared.increment(sharedKey(usernameKey), WINDOW_MS).then(
        (counted) => this.adopt(usernameKey, counted),
        (error: unknown) => this.outage.failed(error),
      );
    }
  }

  recordSuccess(usernameKey: string): void {
    this.failures.delete(usernameKey);
    this.shared?.reset(sharedKey(usernameKey)).catch((error: unknown) => this.outage.failed(error));
  }

  /** Takes over the shared count of this username (nothing to do without Redis). */
  async refresh(usernameKey: string): Promise<void> {
    if (!this.shared) return;
    let counted: WindowCount | undefined;
    try {
      counted = await this.shared.peek(sharedKey(usernameKey));
    } catch (error) {
      // Keep the local count: it is the best knowledge left.
      this.outage.failed(error);
      return;
    }
    this.outage.succeeded();
    if (counted) this.adopt(usernameKey, counted);
    else this.failures.delete(usernameKey);
  }

  private adopt(usernameKey: string, { count, resetInMs }: WindowCount) {
    this.remember(usernameKey, { count, windowStartedAt: Date.now() + resetInMs - WINDOW_MS });
  }

  private remember(usernameKey: string, entry: Failures) {
    this.failures.delete(usernameKey);
    this.failures.set(usernameKey, entry);
    if (this.failures.size > MAX_TRACKED_USERNAMES) {
      const oldest = this.failures.keys().next().value;
      if (oldest !== undefined) this.failures.delete(oldest);
    }
  }

  private current(usernameKey: string): Failures | undefined {
    const entry = this.failures.get(usernameKey);
    if (entry && Date.now() - entry.windowStartedAt >= WINDOW_MS) {
      this.failures.delete(usernameKey);
      return undefined;
    }
    return entry;
  }
}

/** Usernames are not kept in Redis as such: their digest names the counter. */
function sharedKey(usernameKey: string): string {
  return `login-failures:${createHash('sha256').update(usernameKey).digest('hex')}`;
}
