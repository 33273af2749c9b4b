/**
 * Names that every plain object already has (`__proto__`, `constructor`, `toString`, ...) plus
 * `prototype`. class-transformer silently skips most of them, so a body carrying one would lose
 * it without an error, and code that copies keys naively could be tricked into changing a
 * prototype. They are never valid member names, so they are rejected as unknown members.
 */
export function isReservedKey(key: string): boolean {
  return key === 'prototype' || Object.hasOwn(Object.prototype, key);
}
