import { COLUMN_SIZE_MAX, COLUMN_SIZE_MIN } from '../limits';
import { Rule } from './rule';

export const COLUMN_SIZE_DETAIL = `must be an integer from ${COLUMN_SIZE_MIN} to ${COLUMN_SIZE_MAX}`;

export function isColumnSize(value: unknown): value is number {
  return (
    typeof value === 'number' &&
    Number.isInteger(value) &&
    value >= COLUMN_SIZE_MIN &&
    value <= COLUMN_SIZE_MAX
  );
}

export function IsColumnSize(): PropertyDecorator {
  return Rule('isColumnSize', isColumnSize, COLUMN_SIZE_DETAIL, {
    type: 'integer',
    minimum: COLUMN_SIZE_MIN,
    maximum: COLUMN_SIZE_MAX,
  });
}
