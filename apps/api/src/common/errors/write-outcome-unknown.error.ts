import { DomainError, type OwnProblem } from './domain-error';

/**
 * The database stopped answering after the write was sent to be committed: it may have been
 * applied or not. Reporting a failure could make a client repeat a write that happened.
 */
export class WriteOutcomeUnknownError extends DomainError {
  constructor() {
    super(
      'The database stopped answering while this change was being committed: it may or may not have been applied. Read the resource again before repeating the change',
    );
  }

  problem(): OwnProblem {
    return { kind: 'writeOutcomeUnknown', headers: { 'retry-after': '5' } };
  }
}
