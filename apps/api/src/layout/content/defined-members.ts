/** Drops members whose value is undefined, so they cannot overwrite defaults when spread. */
export function definedMembers<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([, member]) => member !== undefined),
  ) as Partial<T>;
}
