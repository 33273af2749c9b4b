import { rateLimitHeaders, secondsUntil } from './rate-limit-headers';

describe('rateLimitHeaders', () => {
  const policy = { name: 'account', quota: 1200, windowSeconds: 60 };

  it('gives the policy and the current state as one-item Structured Field Lists', () => {
    expect(rateLimitHeaders(policy, 1187, 42)).toEqual({
      'ratelimit-policy': '"account";q=1200;w=60',
      ratelimit: '"account";r=1187;t=42',
    });
  });

  it('never says less than nothing is left', () => {
    expect(rateLimitHeaders(policy, -3, 5).ratelimit).toBe('"account";r=0;t=5');
  });

  it('quotes the policy name as a String, escaping `\\` and `"`', () => {
    const odd = { ...policy, name: 'a"b\\c' };
    expect(rateLimitHeaders(odd, 1, 1).ratelimit).toBe('"a\\"b\\\\c";r=1;t=1');
  });
});

describe('secondsUntil', () => {
  it('rounds up to whole seconds, at least 1', () => {
    expect(secondsUntil(0)).toBe(1);
    expect(secondsUntil(1001)).toBe(2);
    expect(secondsUntil(60_000)).toBe(60);
  });
});
