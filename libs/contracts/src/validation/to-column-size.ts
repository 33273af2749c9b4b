import { Transform } from 'class-transformer';

/**
 * Exactly the strings that responses render ("1" to "12"). Anything else ("06", " 6", "6.0",
 * "six") stays a string and fails validation: accepting only what the service itself writes keeps
 * the rule simple to state.
 */
const RENDERED_COLUMN_SIZE = /^(?:[1-9]|1[0-2])$/;

export function toColumnSize(value: unknown): unknown {
  return typeof value === 'string' && RENDERED_COLUMN_SIZE.test(value) ? Number(value) : value;
}

/** Lets a client send back the size it read (`"6"`); every other value is left for validation. */
export function ToColumnSize(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) => toColumnSize(value), { toClassOnly: true });
}
