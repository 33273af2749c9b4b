import { ValidateNested } from 'class-validator';
import { isObjectValue } from './plain-object';
import { Rule } from './rule';

export const OBJECT_DETAIL = 'must be an object';

function combine(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => decorators.forEach((decorate) => decorate(target, key));
}

/**
 * An object member whose own members are validated by its class (see ToInstanceOf). For a
 * primitive, ValidateNested reports as well; it is given the same sentence, which toFieldErrors
 * merges into one.
 */
export function NestedObject(): PropertyDecorator {
  return combine(
    Rule('isObject', isObjectValue, OBJECT_DETAIL),
    ValidateNested({ message: OBJECT_DETAIL }),
  );
}

/**
 * A list of objects validated by their class (see ToInstancesOf). Elements that are not objects
 * fail the list as a whole: class-validator would otherwise descend into a nested array and
 * report its elements under misleading pointers.
 */
export function NestedObjectList(max?: number, min = 0): PropertyDecorator {
  const count = max === undefined ? '' : min > 0 ? `${min} to ${max} ` : `at most ${max} `;
  const detail = `must be an array of ${count}objects`;
  return combine(
    Rule(
      'isObjectList',
      (value) =>
        Array.isArray(value) &&
        (max === undefined || value.length <= max) &&
        value.length >= min &&
        value.every(isObjectValue),
      detail,
      {
        type: 'array',
        ...(max === undefined ? {} : { maxItems: max }),
        ...(min > 0 ? { minItems: min } : {}),
      },
    ),
    ValidateNested({ message: detail }),
  );
}
