import { POSITION_MAX } from '../limits';
import { Rule } from './rule';

export function isPosition(value: unknown): value is number {
  return (
    typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= POSITION_MAX
  );
}

export function IsPosition(): PropertyDecorator {
  return Rule('isPosition', isPosition, 'must be an integer of at least 0', {
    type: 'integer',
    minimum: 0,
    maximum: POSITION_MAX,
  });
}
