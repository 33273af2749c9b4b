import { DomainError, type OwnProblem } from './domain-error';

/** The instance is stopping: the request was not started, and can be sent again elsewhere. */
export class ShuttingDownError extends DomainError {
  constructor() {
    super('This instance is shutting down; send the request again');
  }

  problem(): OwnProblem {
    return { kind: 'shuttingDown', headers: { 'retry-after': '1' } };
  }
}
