import { RequestValidationError } from '../errors';
import { fingerprintOf, parseIdempotencyKey } from './idempotency';

describe('parseIdempotencyKey', () => {
  it('takes the draft structured-field string, escapes included, or the bare characters', () => {
    expect(parseIdempotencyKey('"8e03978e-40d5"')).toBe('8e03978e-40d5');
    expect(parseIdempotencyKey(' "a \\"quoted\\" key" ')).toBe('a "quoted" key');
    expect(parseIdempotencyKey('8e03978e-40d5')).toBe('8e03978e-40d5');
    expect(parseIdempotencyKey(undefined)).toBeUndefined();
  });

  it.each(['', '""', '"', 'a b', '"a"b', '"é"', `"${'k'.repeat(256)}"`])(
    'refuses %j with a validation error',
    (value) => {
      expect(() => parseIdempotencyKey(value)).toThrow(RequestValidationError);
    },
  );
});

describe('fingerprintOf', () => {
  it('differs by method, path and body, and is stable for the same request', () => {
    const base = fingerprintOf('POST', '/projects', { title: 'a' });
    expect(fingerprintOf('POST', '/projects', { title: 'a' })).toBe(base);
    expect(fingerprintOf('PUT', '/projects', { title: 'a' })).not.toBe(base);
    expect(fingerprintOf('POST', '/projects/x', { title: 'a' })).not.toBe(base);
    expect(fingerprintOf('POST', '/projects', { title: 'b' })).not.toBe(base);
  });

  it('reads the same body in any order of its members as one request', () => {
    const body = { type: 'text', data: { html: 'a', alt: 'b' }, position: 0 };
    const reordered = { position: 0, data: { alt: 'b', html: 'a' }, type: 'text' };
    expect(fingerprintOf('POST', '/c', reordered)).toBe(fingerprintOf('POST', '/c', body));
    expect(fingerprintOf('POST', '/c', [1, 2])).not.toBe(fingerprintOf('POST', '/c', [2, 1]));
  });
});
