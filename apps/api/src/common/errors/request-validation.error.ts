import { type FieldError, summarizeFieldErrors } from '@layout/contracts';
import { DomainError } from './domain-error';

export class RequestValidationError extends DomainError {
  constructor(readonly errors: readonly FieldError[]) {
    super(summarizeFieldErrors(errors));
  }
}
