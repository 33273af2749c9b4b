export const UNSAFE_TEXT_DETAIL = 'must not contain NUL characters or unpaired surrogates';

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/**
 * PostgreSQL refuses U+0000 in text and JSON values, and an unpaired surrogate has no UTF-8
 * encoding: storing either would turn a client's input into a server error, so neither is accepted.
 * (A loop rather than a regular expression with lookbehind, which older Safari cannot parse.)
 */
export function isSafeText(value: string): boolean {
  for (let index = 0; index < value.length; index += 1) {
    const unit = value.charCodeAt(index);
    if (unit === 0) {
      return false;
    }
    if (isHighSurrogate(unit)) {
      if (!isLowSurrogate(value.charCodeAt(index + 1))) {
        return false;
      }
      index += 1;
    } else if (isLowSurrogate(unit)) {
      return false;
    }
  }
  return true;
}

/** Length in characters (code points), as PostgreSQL's varchar counts it, not UTF-16 units. */
export function characterLength(value: string): number {
  let surrogatePairs = 0;
  for (let index = 0; index < value.length - 1; index += 1) {
    if (isHighSurrogate(value.charCodeAt(index)) && isLowSurrogate(value.charCodeAt(index + 1))) {
      surrogatePairs += 1;
      index += 1;
    }
  }
  return value.length - surrogatePairs;
}
