import { DomainError, type OwnProblem } from './domain-error';

/**
 * This account already holds its share of the instance's database connections and none came
 * free in time: it is answered 503 so that the other accounts keep theirs.
 */
export class TooManyConcurrentRequestsError extends DomainError {
  readonly retryAfterSeconds = 1;

  constructor() {
    super(
      'This account has too many requests in progress at once; try again in a moment or send fewer in parallel',
    );
  }

  problem(): OwnProblem {
    return {
      kind: 'tooManyConcurrentRequests',
      headers: { 'retry-after': String(this.retryAfterSeconds) },
    };
  }
}
