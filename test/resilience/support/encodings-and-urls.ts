import * as fc from 'fast-check';

// Hostile bodies, URLs and paths for the targeted cases of hostile-input.e2e-spec.ts: bodies in
// other charsets or in bytes that are not UTF-8, URLs made to break out of a CSS `url()`, and
// paths that try to climb out of the explorer's files under /docs.

/** Bodies declared in a charset other than UTF-8: the declaration alone decides (415). */
export const FOREIGN_CHARSET_BODIES: ReadonlyArray<
  [name: string, contentType: string, body: Buffer]
> = [
  ['latin1', 'application/json; charset=latin1', Buffer.from('{"title":"Caf\u00e9"}', 'latin1')],
  [
    'ISO-8859-1, quoted',
    'application/json; charset="ISO-8859-1"',
    Buffer.from('{"title":"Caf\u00e9"}', 'latin1'),
  ],
  [
    'UTF-16 with a byte order mark',
    'application/json;charset=utf-16',
    Buffer.from('\ufeff{"title":"x"}', 'utf16le'),
  ],
  [
    'UTF-16 declared over ASCII bytes',
    'application/json; charset=UTF-16',
    Buffer.from('{"title":"x"}'),
  ],
  ['windows-1252', 'application/json; charset=windows-1252', Buffer.from('{"title":"x"}')],
  ['us-ascii', 'application/json; charset=us-ascii', Buffer.from('{"title":"x"}')],
  [
    'UTF-8 and then latin1',
    'application/json; charset=utf-8; charset=latin1',
    Buffer.from('{"title":"x"}'),
  ],
];

/** Byte sequences that are not UTF-8 (RFC 3629), each put inside a JSON string. */
export const INVALID_UTF8: ReadonlyArray<[name: string, bytes: number[]]> = [
  ['bytes that never occur', [0xff, 0xfe]],
  ['a lone continuation byte', [0x80]],
  ['an overlong NUL (C0 80)', [0xc0, 0x80]],
  ['an overlong "?" (C1 BF)', [0xc1, 0xbf]],
  ['an overlong "/" in three bytes (E0 80 AF)', [0xe0, 0x80, 0xaf]],
  ['an overlong "/" in four bytes (F0 80 80 AF)', [0xf0, 0x80, 0x80, 0xaf]],
  ['a lone high surrogate (ED A0 80)', [0xed, 0xa0, 0x80]],
  ['a lone low surrogate (ED BF BF)', [0xed, 0xbf, 0xbf]],
  ['a surrogate pair in CESU-8 (ED A0 BD ED B8 80)', [0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80]],
  ['a code point past U+10FFFF (F4 90 80 80)', [0xf4, 0x90, 0x80, 0x80]],
  ['a five-byte form (F8 88 80 80 80)', [0xf8, 0x88, 0x80, 0x80, 0x80]],
  ['a truncated sequence (E2 82)', [0xe2, 0x82]],
];

/** `{"<member>":"a<bytes>b"}` as raw bytes. */
export function jsonStringWithBytes(member: string, bytes: readonly number[]): Buffer {
  return Buffer.concat([
    Buffer.from(`{${JSON.stringify(member)}:"a`),
    Buffer.from(bytes),
    Buffer.from('b"}'),
  ]);
}

/** URLs that end an unquoted or quoted CSS `url()` and start a declaration of their own. */
export const CSS_BREAKOUT_URLS: readonly string[] = [
  'https://e.com/a.png);background-image:url(javascript:alert(1)',
  "https://e.com/a.png');background:url('javascript:alert(1)",
  'https://e.com/a.png");background:url("javascript:alert(1)',
  'https://e.com/a.png?x=1)}body{background:url(//evil.example/x)',
  'https://e.com/#)\'"`<script>',
  'https://u(s):p)w@e.com/a.png',
];

/** Legitimate URLs with characters that have to be encoded, and the form they are stored in. */
export const LEGITIMATE_URLS: ReadonlyArray<[sent: string, stored: string]> = [
  [
    'https://en.wikipedia.org/wiki/File:Foo_(bar).png',
    'https://en.wikipedia.org/wiki/File:Foo_%28bar%29.png',
  ],
  ["https://example.com/it's.png", 'https://example.com/it%27s.png'],
  ['HTTPS://Example.COM:443/a/../b.png', 'https://example.com/b.png'],
  ['https://bücher.example/ä.png', 'https://xn--bcher-kva.example/%C3%A4.png'],
];

/** URLs that have no safe stored form: refused with 400 and the member's pointer. */
export const UNSTORABLE_URLS: readonly string[] = [
  'https://a(b).com/x.png',
  "https://a'b.com/x.png",
  'https://e.com/a b)',
  'https://e.com/a\\)',
  'https://e.com/a\n)',
  'https://e.com/a\t)',
  'javascript:alert(1)',
  `https://e.com/${'\u00e9'.repeat(400)}`,
];

/** Anything that goes into a CSS `url()` or an HTML attribute as something else than a URL. */
export const BREAKS_OUT_OF_CSS_URL = /[^\x21-\x7e]|["'()<>\\`]/u;

/** A URL-ish string, often one the service can store, with the characters that matter. */
export const urlCandidate: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...CSS_BREAKOUT_URLS, ...UNSTORABLE_URLS, ...LEGITIMATE_URLS.map(([u]) => u)),
  fc
    .tuple(
      fc.constantFrom('https://', 'http://', 'HTTPS://', 'https://u(x)@'),
      fc.constantFrom('e.com', 'E.COM', 'bücher.example', '127.0.0.1', '[::1]', 'a(b).com'),
      fc.string({
        unit: fc.constantFrom(...'aZ09-._~:/?#[]@!$&\'()*+,;="<>\\`{}|^% \u00e9\t'.split('')),
        maxLength: 40,
      }),
    )
    .map(([scheme, host, rest]) => `${scheme}${host}/${rest}`),
);

/**
 * Paths that try to reach files outside the explorer's own (the service's package.json, the
 * system's files), encoded in every way a server might decode, or files of swagger-ui-dist the
 * page never loads. Each must answer 404 not-found.
 */
export const DOCS_ESCAPES: readonly string[] = [
  '/docs/../package.json',
  '/docs/%2e%2e/package.json',
  '/docs/%2E%2E/%2E%2E/package.json',
  '/docs/.%2e/package.json',
  '/docs/..%2fpackage.json',
  '/docs/%2e%2e%2f%2e%2e%2fpackage.json',
  '/docs/..%5cpackage.json',
  '/docs/..\\package.json',
  '/docs/%c0%ae%c0%ae/package.json',
  '/docs//etc/passwd',
  '/docs/%2fetc%2fpasswd',
  '/docs/../../../../../../etc/passwd',
  '/docs/..',
  '/docs/.',
  '/docs/%00',
  '/docs/swagger-ui.css%00.png',
  '/docs/./swagger-ui.css',
  '/docs/package.json',
  '/docs/README.md',
  '/docs/LICENSE',
  '/docs/index.js',
  '/docs/absolute-path.js',
];
