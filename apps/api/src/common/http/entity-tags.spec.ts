import {
  matchesStrongly,
  matchesWeakly,
  parseTagCondition,
  type TagCondition,
} from './entity-tags';

const tags = (...list: string[]): TagCondition => ({ tags: list });

describe('parseTagCondition', () => {
  it('answers undefined when the header is absent', () => {
    expect(parseTagCondition(undefined)).toBeUndefined();
  });

  it('reads * (with surrounding spaces) as "any current representation"', () => {
    expect(parseTagCondition('*')).toEqual({ any: true });
    expect(parseTagCondition('  *  ')).toEqual({ any: true });
  });

  it('reads one strong tag, quotes kept as on the wire', () => {
    expect(parseTagCondition('"r12"')).toEqual({ tags: ['"r12"'] });
  });

  it('reads a list, with or without spaces around the commas', () => {
    expect(parseTagCondition('"r1","r2" ,  "l3"')).toEqual({ tags: ['"r1"', '"r2"', '"l3"'] });
  });

  it('ignores empty list elements (RFC 9110 §5.6.1)', () => {
    expect(parseTagCondition(', "r1",, "r2",')).toEqual({ tags: ['"r1"', '"r2"'] });
    expect(parseTagCondition('"a",,"b"')).toEqual({ tags: ['"a"', '"b"'] });
    expect(parseTagCondition('"a", ,\t, "b"')).toEqual({ tags: ['"a"', '"b"'] });
  });

  it('reads the list tag by tag, so a tag may hold a comma', () => {
    expect(parseTagCondition('"a,b", "r8"')).toEqual({ tags: ['"a,b"', '"r8"'] });
    expect(parseTagCondition('"a,b"')).toEqual({ tags: ['"a,b"'] });
    expect(parseTagCondition('W/",", ","')).toEqual({ tags: ['W/","', '","'] });
    expect(parseTagCondition('"r1","a, b"')).toBe('invalid'); // a space is no etagc
  });

  it('keeps obs-text (bytes 0x80-0xff) inside a tag', () => {
    expect(parseTagCondition('"r\u00e9"')).toEqual({ tags: ['"r\u00e9"'] });
  });

  it('reads a header again from its start, whatever the one before it was', () => {
    expect(parseTagCondition('"r1", r2')).toBe('invalid');
    expect(parseTagCondition('"r3"')).toEqual({ tags: ['"r3"'] });
    expect(parseTagCondition('"r1", "r2"')).toEqual({ tags: ['"r1"', '"r2"'] });
    expect(parseTagCondition('"r4"')).toEqual({ tags: ['"r4"'] });
  });

  it('keeps the W/ prefix of a weak tag', () => {
    expect(parseTagCondition('W/"r1", "r2"')).toEqual({ tags: ['W/"r1"', '"r2"'] });
  });

  it('accepts the empty opaque tag ""', () => {
    expect(parseTagCondition('""')).toEqual({ tags: ['""'] });
  });

  it.each([
    ['an empty header', ''],
    ['only spaces', '   '],
    ['only commas', ' , ,'],
    ['an unquoted tag', 'r1'],
    ['an unterminated quote', '"r1'],
    ['a lower-case weak prefix', 'w/"r1"'],
    ['a space inside the quotes', '"r 1"'],
    ['a quote inside the quotes', '"r"1"'],
    ['* inside a list', '*, "r1"'],
    ['one bad element among good ones', '"r1", r2'],
    ['two tags without a comma between them', '"a" "b"'],
    ['two tags run together', '"a""b"'],
    ['a bare word', 'abc'],
    ['text after the last tag', '"r1" x'],
    ['text after a comma', '"r1", x'],
    ['a quote closed by a tag of the list', '"a,"b"'],
    ['a control character inside the quotes', '"r\u00011"'],
  ])('answers invalid for %s', (_name, header) => {
    expect(parseTagCondition(header)).toBe('invalid');
  });
});

describe('matchesStrongly (If-Match)', () => {
  it('* matches any current tag', () => {
    expect(matchesStrongly({ any: true }, '"r8"')).toBe(true);
  });

  it('matches when the current tag is one of the list', () => {
    expect(matchesStrongly(tags('"r7"', '"r8"'), '"r8"')).toBe(true);
  });

  it('does not match another tag', () => {
    expect(matchesStrongly(tags('"r7"'), '"r8"')).toBe(false);
  });

  it('never matches a weak tag, even with the same opaque value', () => {
    expect(matchesStrongly(tags('W/"r8"'), '"r8"')).toBe(false);
  });

  it('compares character by character (no case folding, no trimming of the opaque part)', () => {
    expect(matchesStrongly(tags('"R8"'), '"r8"')).toBe(false);
    expect(matchesStrongly(tags('"r8 "'), '"r8"')).toBe(false);
  });
});

describe('matchesWeakly (If-None-Match)', () => {
  it('* matches any current tag', () => {
    expect(matchesWeakly({ any: true }, '"l3"')).toBe(true);
  });

  it('matches a strong tag equal to the current one', () => {
    expect(matchesWeakly(tags('"r1"', '"r8"'), '"r8"')).toBe(true);
  });

  it('matches a weak tag with the same opaque value', () => {
    expect(matchesWeakly(tags('W/"r8"'), '"r8"')).toBe(true);
  });

  it('does not match another opaque value, weak or strong', () => {
    expect(matchesWeakly(tags('W/"r7"', '"r9"'), '"r8"')).toBe(false);
  });
});
