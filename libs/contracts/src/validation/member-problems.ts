import type { FieldError } from './field-error';

// class-validator reports a custom rule at its own member only. A rule that checks a whole list
// of dynamic objects (quote items) records here, keyed by the list it checked, which members
// inside it are wrong, so that toFieldErrors can point at each one. Pointers are relative to the
// list. A WeakMap, so that nothing outlives the request body.
const problemsByValue = new WeakMap<object, readonly FieldError[]>();

export function recordMemberProblems(value: unknown, problems: readonly FieldError[]): void {
  if (typeof value === 'object' && value !== null) {
    problemsByValue.set(value, problems);
  }
}

export function memberProblemsOf(value: unknown): readonly FieldError[] | undefined {
  return typeof value === 'object' && value !== null ? problemsByValue.get(value) : undefined;
}
