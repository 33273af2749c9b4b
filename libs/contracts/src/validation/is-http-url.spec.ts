import { URL_MAX_LENGTH } from '../limits';
import { isHttpUrl } from './is-http-url';

describe('isHttpUrl', () => {
  it.each([
    'http://example.com',
    'https://example.com/a/b.png?x=1#y',
    'HTTPS://EXAMPLE.COM/',
    'https://127.0.0.1:8080/x',
    'https://[::1]/x',
    'https://bücher.example/ä',
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
    '',
    `https://example.com/${'a'.repeat(URL_MAX_LENGTH)}`,
    42,
    null,
  ])('rejects %j', (value) => expect(isHttpUrl(value)).toBe(false));
});
