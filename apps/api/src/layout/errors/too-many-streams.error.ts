import { DomainError, type OwnProblem } from '../../common/errors/domain-error';

/** The account already has as many event streams open as it may, on all instances. */
export class TooManyStreamsError extends DomainError {
  /** A slot comes free when one of the account's streams closes: a few seconds, typically. */
  readonly retryAfterSeconds = 5;

  constructor(readonly limit: number) {
    super(`This account already has ${limit} event streams open; close one first`);
  }

  problem(): OwnProblem {
    return {
      kind: 'tooManyStreams',
      extensions: { limit: this.limit },
      headers: { 'retry-after': String(this.retryAfterSeconds) },
    };
  }
}
