import { DomainError, type OwnProblem } from '../../common/errors/domain-error';

/** Whose failed sign-ins ask for the wait: this address's, or the username's over all addresses. */
export type LoginAttemptsCounted = 'address' | 'username';

const DETAILS: Readonly<Record<LoginAttemptsCounted, string>> = {
  address: 'Too many failed sign-ins from this address; try again later',
  username:
    'Too many failed sign-ins for this username; try again later, or from a device that signed in to this account before',
};

/** Failed sign-ins ask for a wait before the next attempt. */
export class TooManyLoginAttemptsError extends DomainError {
  constructor(
    readonly retryAfterSeconds: number,
    readonly counted: LoginAttemptsCounted = 'address',
  ) {
    super(DETAILS[counted]);
  }

  problem(): OwnProblem {
    return { kind: 'rateLimited', headers: { 'retry-after': String(this.retryAfterSeconds) } };
  }
}
