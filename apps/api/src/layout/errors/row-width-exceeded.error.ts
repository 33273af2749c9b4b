import { DomainError, type OwnProblem } from '../../common/errors/domain-error';

export class RowWidthExceededError extends DomainError {
  constructor(
    /** How much of the row's width is left for the column being created or resized. */
    readonly availableSize: number,
    readonly requestedSize: number,
    readonly rowWidth: number,
  ) {
    super(
      `The columns of a row add up to at most ${rowWidth}; ${availableSize} left for this column, ${requestedSize} requested`,
    );
  }

  problem(): OwnProblem {
    return { kind: 'rowWidthExceeded', extensions: { availableSize: this.availableSize } };
  }
}
