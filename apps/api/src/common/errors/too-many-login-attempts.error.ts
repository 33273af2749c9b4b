import { DomainError } from './domain-error';

export class TooManyLoginAttemptsError extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super('Too many failed sign-ins for this username; try again later');
  }
}
