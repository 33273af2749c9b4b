import { isReservedKey } from './reserved-keys';
import { Rule } from './rule';

/** For a string that other objects will use as a key (a quote field id). */
export function IsNotReservedKey(): PropertyDecorator {
  return Rule(
    'isNotReservedKey',
    (value) => typeof value !== 'string' || !isReservedKey(value),
    'must not be a name that JavaScript objects reserve, such as __proto__ or constructor',
  );
}
