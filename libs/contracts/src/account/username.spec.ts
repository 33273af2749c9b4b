import fc from 'fast-check';
import {
  normalizeUsername,
  USERNAME_CHARACTERS_DETAIL,
  USERNAME_LENGTH_DETAIL,
  usernameKey,
  usernameProblem,
} from './username';

/** The fullwidth form (U+FF01..U+FF5E) of printable ASCII. */
const fullwidth = (ascii: string) =>
  ascii.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));

describe('normalizeUsername (PRECIS UsernameCaseMapped, RFC 8265)', () => {
  it.each([
    ['alice', 'alice', 'alice'],
    [' alice', 'alice', 'alice'],
    ['alice\t\n', 'alice', 'alice'],
    ['\u3000alice\u00a0', 'alice', 'alice'],
    ['\ufeffalice', 'alice', 'alice'],
    ['ALICE', 'ALICE', 'alice'],
    ['Alice', 'Alice', 'alice'],
    [fullwidth('alice'), 'alice', 'alice'],
    [fullwidth('ALICE-42'), 'ALICE-42', 'alice-42'],
    ['\uff71\uff98\uff7d', '\u30a2\u30ea\u30b9', '\u30a2\u30ea\u30b9'], // halfwidth katakana
    ['Cafe\u0301', 'Caf\u00e9', 'caf\u00e9'],
    ['CAF\u00c9', 'CAF\u00c9', 'caf\u00e9'],
    ['\u2168-user', 'IX-user', 'ix-user'], // ROMAN NUMERAL NINE
    ['\u{1d400}da', 'Ada', 'ada'], // MATHEMATICAL BOLD CAPITAL A
    ['\u1e9e', 'ẞ', 'ß'],
    ['\u039f\u0394\u039f\u03a3', 'ΟΔΟΣ', 'οδος'], // final sigma
  ])('%j is known as %j with the key %j', (typed, username, key) => {
    expect(normalizeUsername(typed)).toEqual({ username, key });
    expect(usernameKey(typed)).toBe(key);
  });

  it('gives " alice", "ALICE" and fullwidth "ａｌｉｃｅ" one key', () => {
    const keys = new Set(
      [' alice', 'ALICE', '\uff41\uff4c\uff49\uff43\uff45', 'alice'].map(usernameKey),
    );
    expect([...keys]).toEqual(['alice']);
  });

  it('tells different names apart', () => {
    expect(usernameKey('alice')).not.toBe(usernameKey('alicia'));
    expect(usernameKey('al-ice')).not.toBe(usernameKey('alice'));
  });

  it('is idempotent: a stored username normalises to itself, a key to itself', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (typed) => {
        const { username, key } = normalizeUsername(typed);
        if (usernameProblem(typed) !== undefined) return;
        expect(normalizeUsername(username)).toEqual({ username, key });
        expect(usernameKey(key)).toBe(key);
      }),
    );
  });
});

describe('usernameProblem', () => {
  it.each([
    'ada',
    'ada@example.com',
    ' ada ',
    'Ada.Lovelace_1815',
    '\u00e9mile',
    '\u7530\u4e2d\u592a\u90ce',
    '\u{1f600}\u{1f600}\u{1f600}',
    'a'.repeat(254),
    `${'a'.repeat(254)}   `,
    '\u337f', // SQUARE CORPORATION: one character, four once normalised
    fullwidth('alice'),
  ])('accepts %j', (typed) => {
    expect(usernameProblem(typed)).toBeUndefined();
  });

  it.each([
    ['al ice', USERNAME_CHARACTERS_DETAIL],
    ['al\u00a0ice', USERNAME_CHARACTERS_DETAIL], // no-break space
    ['al\u3000ice', USERNAME_CHARACTERS_DETAIL], // ideographic space
    ['al\tice', USERNAME_CHARACTERS_DETAIL],
    ['alice\u0000', USERNAME_CHARACTERS_DETAIL],
    ['alice\u0007', USERNAME_CHARACTERS_DETAIL],
    ['ali\u0085ce', USERNAME_CHARACTERS_DETAIL], // NEXT LINE, a control that trim() keeps
    ['ali\u200bce', USERNAME_CHARACTERS_DETAIL], // ZERO WIDTH SPACE (format)
    ['ali\u202ece', USERNAME_CHARACTERS_DETAIL], // RIGHT-TO-LEFT OVERRIDE
    ['ali\ue000ce', USERNAME_CHARACTERS_DETAIL], // private use
    ['ali\u0378ce', USERNAME_CHARACTERS_DETAIL], // unassigned
    ['ali\ud800ce', USERNAME_CHARACTERS_DETAIL], // unpaired surrogate
    ['a\u00a8b', USERNAME_CHARACTERS_DETAIL], // DIAERESIS: NFKC makes it a space + combining mark
    ['ab', USERNAME_LENGTH_DETAIL],
    ['  ab  ', USERNAME_LENGTH_DETAIL],
    ['', USERNAME_LENGTH_DETAIL],
    ['a'.repeat(255), USERNAME_LENGTH_DETAIL],
    ['\u337f'.repeat(70), USERNAME_LENGTH_DETAIL], // 70 characters, 280 once normalised
    [`${'a'.repeat(253)}\u0130`, USERNAME_LENGTH_DETAIL], // its key is 255 characters
    [' '.repeat(600), USERNAME_LENGTH_DETAIL],
    [42, USERNAME_LENGTH_DETAIL],
    [null, USERNAME_LENGTH_DETAIL],
  ])('refuses %j: %s', (typed, detail) => {
    expect(usernameProblem(typed)).toBe(detail);
  });
});
