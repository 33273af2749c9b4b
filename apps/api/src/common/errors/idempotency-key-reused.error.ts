import { DomainError, type OwnProblem } from './domain-error';

/** The key came with another request before: replaying that answer would be wrong. */
export class IdempotencyKeyReusedError extends DomainError {
  constructor() {
    super(
      'This Idempotency-Key was sent with another request (method, path or body) within the last 24 hours; use a new key for a new request',
    );
  }

  problem(): OwnProblem {
    return { kind: 'idempotencyKeyReused' };
  }
}
