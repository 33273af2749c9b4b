import { DomainError, type RefusalOfPart } from '../../common/errors/domain-error';

/**
 * One operation of a batch was refused: the batch answers that operation's own problem, with
 * the index of the operation that caused it.
 */
export class BatchOperationFailedError extends DomainError {
  constructor(
    readonly operationIndex: number,
    readonly refusal: unknown,
  ) {
    super(`Operation ${operationIndex} of the batch was refused; nothing was changed`);
  }

  problem(): RefusalOfPart {
    return { refusal: this.refusal, extensions: { operationIndex: this.operationIndex } };
  }
}
