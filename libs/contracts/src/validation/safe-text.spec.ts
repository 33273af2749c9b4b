import { characterLength, isSafeText } from './safe-text';

describe('safe text', () => {
  it.each(['', 'plain', 'émoji 😀', '\uD83D\uDE00x'])('accepts %j', (value) =>
    expect(isSafeText(value)).toBe(true),
  );

  it.each(['a\u0000b', '\uD800', 'x\uD800y', '\uDC00', 'a\uDE00\uD83D', '😀\uD83D'])(
    'rejects %j',
    (value) => expect(isSafeText(value)).toBe(false),
  );

  it('counts code points, as PostgreSQL counts characters', () => {
    expect(characterLength('abc')).toBe(3);
    expect(characterLength('😀😀')).toBe(2);
    expect(characterLength('a\uD800')).toBe(2);
  });
});
