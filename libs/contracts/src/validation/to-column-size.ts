import { Transform } from 'class-transformer';
import { COLUMN_SIZE_MAX, COLUMN_SIZE_MIN } from '../limits';
import { recordSchemaHint, SchemaHint } from './schema-hints';

/**
 * Exactly the strings that responses render ("1" to "12"). Anything else ("06", " 6", "6.0",
 * "six") stays a string and fails validation: accepting only what the service itself writes keeps
 * the rule simple to state.
 */
const RENDERED_COLUMN_SIZE = /^(?:[1-9]|1[0-2])$/;

export function toColumnSize(value: unknown): unknown {
  return typeof value === 'string' && RENDERED_COLUMN_SIZE.test(value) ? Number(value) : value;
}

/** The sizes as responses render them: `"1"` to `"12"`. */
export const RENDERED_COLUMN_SIZES: readonly string[] = Array.from(
  { length: COLUMN_SIZE_MAX - COLUMN_SIZE_MIN + 1 },
  (_, index) => String(COLUMN_SIZE_MIN + index),
);

/** What a member with this transform (and IsColumnSize) accepts: the number or its string form. */
export const COLUMN_SIZE_SCHEMA: SchemaHint = {
  oneOf: [
    { type: 'integer', minimum: COLUMN_SIZE_MIN, maximum: COLUMN_SIZE_MAX },
    { type: 'string', enum: RENDERED_COLUMN_SIZES },
  ],
};

/** Lets a client send back the size it read (`"6"`); every other value is left for validation. */
export function ToColumnSize(): PropertyDecorator {
  const transform = Transform(({ value }: { value: unknown }) => toColumnSize(value), {
    toClassOnly: true,
  });
  return (target, member) => {
    transform(target, member);
    recordSchemaHint(target, member, COLUMN_SIZE_SCHEMA);
  };
}
