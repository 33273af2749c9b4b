import type { FieldError } from './field-error';

function memberPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

/** One error as a sentence, e.g. "size must be an integer from 1 to 12". */
export function describeFieldError(error: FieldError): string {
  return `${error.pointer === '' ? 'the body' : memberPath(error.pointer)} ${error.detail}`;
}

/**
 * The `detail` of a validation problem: the first error as a sentence, and how many more follow
 * (the full list is in `errors`).
 */
export function summarizeFieldErrors(errors: readonly FieldError[]): string {
  const [first] = errors;
  if (first === undefined) {
    return 'The request body is invalid';
  }
  const more = errors.length - 1;
  return more === 0
    ? describeFieldError(first)
    : `${describeFieldError(first)} (and ${more} more ${more === 1 ? 'error' : 'errors'})`;
}
