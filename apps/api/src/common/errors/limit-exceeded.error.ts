import { DomainError, type OwnProblem } from './domain-error';

/** A write would take a container past one of the contract's limits: nothing was changed. */
export class LimitExceededError extends DomainError {
  constructor(
    /** The limit, in the unit the message names (items, or bytes). */
    readonly limit: number,
    message: string,
  ) {
    super(message);
  }

  problem(): OwnProblem {
    return { kind: 'limitExceeded', extensions: { limit: this.limit } };
  }
}
