import * as fc from 'fast-check';
import { URL_MAX_LENGTH } from '../limits';
import { isHttpUrl, isNormalisedHttpUrl, normaliseHttpUrl } from './is-http-url';

/** What ends or escapes a CSS `url()` token or string, or an HTML attribute value. */
const BREAKS_OUT_OF_CSS_OR_HTML = /[^\x21-\x7e]|["'()<>\\`]/u;

describe('isHttpUrl', () => {
  it.each([
    'http://example.com',
    'https://example.com/a/b.png?x=1#y',
    'HTTPS://EXAMPLE.COM/',
    'https://127.0.0.1:8080/x',
    'https://[::1]/x',
    'https://bücher.example/ä',
    'https://en.wikipedia.org/wiki/File:Foo_(bar).png',
    "https://example.com/it's.png",
    'https://example.com/a.png);background-image:url(javascript:alert(1)',
  ])('accepts %j', (value) => expect(isHttpUrl(value)).toBe(true));

  it.each([
    'javascript:alert(1)',
    'ftp://x',
    'data:image/png;base64,AAAA',
    '//example.com/x',
    '/relative/path',
    'example.com',
    'https:example.com',
    'https:/example.com',
    'https:\\\\example.com',
    'https://',
    ' https://example.com',
    'https://exa mple.com',
    'https://example.com/\n',
    'https://example.com/\u0000',
    'https://example.com/\uD800',
    'https://example.com/a\\b',
    'https://example.com/a)\tb',
    // Hosts WHATWG lets through but no real host has, and that cannot be percent-encoded.
    'https://a(b).com/',
    "https://a'b.com/",
    'https://a"b.com/',
    'https://a`b.com/',
    'https://a{b}.com/',
    '',
    `https://example.com/${'a'.repeat(URL_MAX_LENGTH)}`,
    // 2048 characters as sent, but each "é" takes 6 once percent-encoded.
    `https://example.com/${'é'.repeat(URL_MAX_LENGTH - 20)}`,
    42,
    null,
  ])('rejects %j', (value) => expect(isHttpUrl(value)).toBe(false));
});

describe('normaliseHttpUrl', () => {
  it.each([
    ['https://example.com/a.png', 'https://example.com/a.png'],
    ['http://example.com', 'http://example.com/'],
    ['HTTPS://EXAMPLE.COM:443/a/../b/./c.png', 'https://example.com/b/c.png'],
    ['https://bücher.example/ä?ü#ö', 'https://xn--bcher-kva.example/%C3%A4?%C3%BC#%C3%B6'],
    [
      'https://en.wikipedia.org/wiki/File:Foo_(bar).png',
      'https://en.wikipedia.org/wiki/File:Foo_%28bar%29.png',
    ],
    [
      'https://e.com/a.png);background-image:url(javascript:alert(1)',
      'https://e.com/a.png%29;background-image:url%28javascript:alert%281%29',
    ],
    [`https://e.com/a.png');x:url('y`, 'https://e.com/a.png%27%29;x:url%28%27y'],
    ['https://e.com/a.png");x:url("y', 'https://e.com/a.png%22%29;x:url%28%22y'],
    [
      "https://e.com/?q=(1)&r='2'#f(\")`<>",
      'https://e.com/?q=%281%29&r=%272%27#f%28%22%29%60%3C%3E',
    ],
    ['https://u(s):p)w@e.com/', 'https://u%28s%29:p%29w@e.com/'],
    ['https://e.com/a%28b%29%zz', 'https://e.com/a%28b%29%zz'],
    ['https://e.com/*/;{}|^', 'https://e.com/*/;%7B%7D|%5E'],
    // Encoded wherever it is, whether or not this runtime's URL parser encodes it.
    ['https://e.com/a?b=^#c^', 'https://e.com/a?b=%5E#c%5E'],
  ])('stores %j as %j', (value, stored) => {
    expect(normaliseHttpUrl(value)).toBe(stored);
    expect(isNormalisedHttpUrl(stored)).toBe(true);
    expect(isNormalisedHttpUrl(value)).toBe(value === stored);
  });

  it('keeps every stored URL inside a CSS url() and an HTML attribute, parseable, stable and short', () => {
    const urlCharacter = fc.constantFrom(
      ...'aZ09-._~:/?#[]@!$&\'()*+,;="<>\\`{}|^% é😀\u00a0\u2028\u0000\t\n'.split(''),
      '\ud83d\ude00',
    );
    const candidate = fc.oneof(
      fc
        .tuple(
          fc.constantFrom('https://', 'http://', 'HTTPS://', 'https://user:pa(ss)@'),
          fc.constantFrom(
            'example.com',
            'EXAMPLE.com',
            'bücher.example',
            '127.0.0.1',
            '[::1]',
            'a(b).com',
          ),
          fc.constantFrom('', ':443', ':8080'),
          fc.string({ unit: urlCharacter, maxLength: 40 }),
        )
        .map(([scheme, host, port, rest]) => `${scheme}${host}${port}/${rest}`),
      fc.string({ maxLength: 60 }),
    );
    fc.assert(
      fc.property(candidate, (value) => {
        const stored = normaliseHttpUrl(value);
        if (stored === undefined) return;
        expect(stored).not.toMatch(BREAKS_OUT_OF_CSS_OR_HTML);
        expect(stored.length).toBeLessThanOrEqual(URL_MAX_LENGTH);
        expect(normaliseHttpUrl(stored)).toBe(stored);
        const url = new URL(stored);
        expect(['http:', 'https:']).toContain(url.protocol);
        expect(url.host).toBe(new URL(value).host);
      }),
      { numRuns: 2000 },
    );
  });
});
