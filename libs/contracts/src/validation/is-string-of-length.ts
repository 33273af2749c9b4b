import { Rule } from './rule';
import type { SchemaHint } from './schema-hints';
import { characterLength, isSafeText, UNSAFE_TEXT_DETAIL } from './safe-text';

export function isStringOfLength(value: unknown, min: number, max: number): value is string {
  // The cheap check first, so that a huge string is rejected without being scanned.
  if (typeof value !== 'string' || value.length > max * 2) {
    return false;
  }
  const length = characterLength(value);
  return length >= min && length <= max && isSafeText(value);
}

export function describeStringLength(min: number, max: number): string {
  if (min <= 0) {
    return `a string of at most ${max} characters`;
  }
  if (min === 1) {
    return `a non-empty string of at most ${max} characters`;
  }
  return `a string of ${min} to ${max} characters`;
}

export function stringLengthDetail(value: unknown, min: number, max: number): string {
  return typeof value === 'string' && value.length <= max * 2 && !isSafeText(value)
    ? UNSAFE_TEXT_DETAIL
    : `must be ${describeStringLength(min, max)}`;
}

/** Lengths count characters (code points), as the rule does. */
export function stringOfLengthSchema(min: number, max: number): SchemaHint {
  return { type: 'string', ...(min > 0 ? { minLength: min } : {}), maxLength: max };
}

export function IsStringOfLength(min: number, max: number): PropertyDecorator {
  return Rule(
    'isStringOfLength',
    (value) => isStringOfLength(value, min, max),
    ({ value }) => stringLengthDetail(value, min, max),
    stringOfLengthSchema(min, max),
  );
}
