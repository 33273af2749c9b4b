import { type FieldError, summarizeFieldErrors } from '@layout/contracts';
import { DomainError, type OwnProblem } from './domain-error';

/**
 * A request that breaks the contract's rules: `errors` names each member (or query parameter)
 * by JSON pointer. Something that no pointer names (a header) says itself in `detail`.
 */
export class RequestValidationError extends DomainError {
  constructor(
    readonly errors: readonly FieldError[],
    detail = summarizeFieldErrors(errors),
  ) {
    super(detail);
  }

  problem(): OwnProblem {
    return { kind: 'validation', extensions: { errors: this.errors } };
  }
}
