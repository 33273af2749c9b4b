import { Rule } from './rule';

export function IsNumberInRange(min: number, max: number): PropertyDecorator {
  return Rule(
    'isNumberInRange',
    (value) => typeof value === 'number' && value >= min && value <= max,
    `must be a number from ${min} to ${max}`,
    { type: 'number', minimum: min, maximum: max },
  );
}
