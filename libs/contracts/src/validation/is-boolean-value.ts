import { Rule } from './rule';

export function IsBooleanValue(): PropertyDecorator {
  return Rule('isBooleanValue', (value) => typeof value === 'boolean', 'must be true or false', {
    type: 'boolean',
  });
}
