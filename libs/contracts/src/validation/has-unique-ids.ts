import { Rule } from './rule';

function firstRepeatedId(value: unknown): string | undefined {
  if (!Array.isArray(value)) {
    return undefined;
  }
  const seen = new Set<string>();
  for (const element of value) {
    const id =
      typeof element === 'object' && element !== null
        ? (element as { id?: unknown }).id
        : undefined;
    if (typeof id === 'string') {
      if (seen.has(id)) {
        return id;
      }
      seen.add(id);
    }
  }
  return undefined;
}

/** No two elements of the list share an `id` (other rules report a list that is not one). */
export function HasUniqueIds(): PropertyDecorator {
  return Rule(
    'hasUniqueIds',
    (value) => firstRepeatedId(value) === undefined,
    ({ value }) =>
      `must not repeat an id (${JSON.stringify(firstRepeatedId(value))} appears twice)`,
  );
}
