import { Rule } from './rule';

export function IsOneOf(values: readonly string[]): PropertyDecorator {
  return Rule(
    'isOneOf',
    (value) => typeof value === 'string' && values.includes(value),
    `must be one of: ${values.join(', ')}`,
    { type: 'string', enum: values },
  );
}
