// Usernames follow the PRECIS UsernameCaseMapped profile (RFC 8265), simplified. This is the one
// implementation of the rule: the server's sign-up, token requests and operators' command use
// it, and so does SignUpDto, so that a browser app refuses exactly what the server refuses. Only
// standard ECMAScript (String.prototype.normalize, toLowerCase, Unicode property escapes): it
// runs in browsers.

import { USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH } from '../limits';
import { describeStringLength } from '../validation/is-string-of-length';
import { Rule } from '../validation/rule';
import { characterLength } from '../validation/safe-text';

/** A username in its two forms. */
export interface NormalizedUsername {
  /**
   * What the account is known as (and shows): surrounding whitespace removed, then Unicode NFKC,
   * which maps fullwidth and halfwidth forms to their ordinary ones (RFC 8265 3.3.1, width
   * mapping). Case is kept as typed.
   */
  readonly username: string;
  /**
   * What uniqueness and sign-in compare: `username` lower-cased (RFC 8265 3.3.2, case mapping,
   * with Unicode's full `toLowerCase`). `" Alice"`, `"ALICE"` and `"ａｌｉｃｅ"` all have the key
   * `"alice"`.
   */
  readonly key: string;
}

/** Normalises any string; says nothing of whether it is an acceptable username. */
export function normalizeUsername(value: string): NormalizedUsername {
  const username = value.trim().normalize('NFKC');
  return { username, key: username.toLowerCase() };
}

/** The key a username is looked up by; the same as `normalizeUsername(value).key`. */
export function usernameKey(value: string): string {
  return normalizeUsername(value).key;
}

export const USERNAME_LENGTH_DETAIL = `must be ${describeStringLength(USERNAME_MIN_LENGTH, USERNAME_MAX_LENGTH)}`;
export const USERNAME_CHARACTERS_DETAIL =
  'must contain only letters, marks, digits, punctuation and symbols: no spaces inside, ' +
  'no control, format, private-use or unassigned characters';

// The characters a normalised username may hold: letters (L), marks (M), numbers (N),
// punctuation (P) and symbols (S), in ASCII and beyond. Refused: separators (Z: spaces, line and
// paragraph separators) and "other" (C: controls, format characters such as zero-width joiners
// and direction marks, surrogates, private-use and unassigned code points). PRECIS's
// IdentifierClass is stricter (no symbols or punctuation beyond ASCII, so no emoji, and no
// compatibility characters); this keeps the names people actually type.
const ALLOWED_CHARACTERS = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]*$/u;

/**
 * Why a value is not an acceptable username (a detail for a `/problems/validation` answer), or
 * `undefined` when it is one. Checked on the normalised form: its characters (an NFKC mapping
 * can itself produce a space, e.g. from U+00A8 DIAERESIS), then its length in characters (code
 * points), both forms within 3..254.
 */
export function usernameProblem(value: unknown): string | undefined {
  // The cheap check first, so that a huge string is refused without being normalised.
  if (typeof value !== 'string' || value.length > USERNAME_MAX_LENGTH * 2) {
    return USERNAME_LENGTH_DETAIL;
  }
  const { username, key } = normalizeUsername(value);
  if (!ALLOWED_CHARACTERS.test(username)) {
    return USERNAME_CHARACTERS_DETAIL;
  }
  // Lower-casing can lengthen a name (U+0130 becomes i + U+0307): the key must fit as well.
  const shortest = characterLength(username);
  const longest = Math.max(shortest, characterLength(key));
  return shortest < USERNAME_MIN_LENGTH || longest > USERNAME_MAX_LENGTH
    ? USERNAME_LENGTH_DETAIL
    : undefined;
}

export function isUsername(value: unknown): value is string {
  return usernameProblem(value) === undefined;
}

/** The username rule of sign-up (see usernameProblem). */
export function IsUsername(): PropertyDecorator {
  return Rule(
    'isUsername',
    isUsername,
    ({ value }) => usernameProblem(value) ?? USERNAME_LENGTH_DETAIL,
    // Lengths are counted after normalisation, which the schema cannot say exactly.
    { type: 'string', minLength: USERNAME_MIN_LENGTH, maxLength: USERNAME_MAX_LENGTH },
  );
}
