import { isReservedKey } from './reserved-keys';

/**
 * A copy of a JSON value without reserved keys. class-transformer must never see them: besides
 * dropping most of them silently, it throws on any nested object whose own `constructor` member
 * is not a function (it takes it for the class to build). Recursive: call it only on a value
 * whose depth findBodyShapeProblems has accepted.
 */
export function withoutReservedKeys(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(withoutReservedKeys);
  }
  if (typeof value !== 'object' || value === null) {
    return value;
  }
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !isReservedKey(key))
      .map(([key, member]) => [key, withoutReservedKeys(member)]),
  );
}
