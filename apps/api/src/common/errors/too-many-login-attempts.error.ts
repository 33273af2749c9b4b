import { DomainError } from './domain-error';

/** Failed sign-ins from the client's address ask for a wait before the next attempt. */
export class TooManyLoginAttemptsError extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super('Too many failed sign-ins from this address; try again later');
  }
}
