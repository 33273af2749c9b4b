import { DomainError, type OwnProblem } from '../errors/domain-error';
import { type RateLimitPolicy, rateLimitHeaders } from './rate-limit-headers';

/** A request past its budget: 429 with Retry-After and the RateLimit fields. */
export class RateLimitExceededError extends DomainError {
  constructor(
    readonly policy: RateLimitPolicy,
    readonly retryAfterSeconds: number,
  ) {
    super(`Too many requests: try again in ${retryAfterSeconds} s`);
  }

  problem(): OwnProblem {
    return { kind: 'rateLimited', headers: this.headers() };
  }

  headers(): Record<string, string> {
    return {
      'retry-after': String(this.retryAfterSeconds),
      ...rateLimitHeaders(this.policy, 0, this.retryAfterSeconds),
    };
  }
}
