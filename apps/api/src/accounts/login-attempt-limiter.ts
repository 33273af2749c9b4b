import { Injectable } from '@nestjs/common';
import { TooManyLoginAttemptsError } from '../common/errors';

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
 */
@Injectable()
export class LoginAttemptLimiter {
  private readonly failures = new Map<string, Failures>();

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
    this.failures.delete(usernameKey);
    this.failures.set(usernameKey, entry);
    if (this.failures.size > MAX_TRACKED_USERNAMES) {
      const oldest = this.failures.keys().next().value;
      if (oldest !== undefined) this.failures.delete(oldest);
    }
  }

  recordSuccess(usernameKey: string): void {
    this.failures.delete(usernameKey);
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
