import { type RateLimitPolicy, rateLimitHeaders } from './rate-limit-headers';

/** A request past its budget: 429 with Retry-After and the RateLimit fields. */
export class RateLimitExceededError extends Error {
  constructor(
    readonly policy: RateLimitPolicy,
    readonly retryAfterSeconds: number,
  ) {
    super(`Too many requests: try again in ${retryAfterSeconds} s`);
    this.name = 'RateLimitExceededError';
  }

  headers(): Record<string, string> {
    return {
      'retry-after': String(this.retryAfterSeconds),
      ...rateLimitHeaders(this.policy, 0, this.retryAfterSeconds),
    };
  }
}
