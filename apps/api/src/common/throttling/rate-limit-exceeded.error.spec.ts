import { toProblem } from '../filters/problem';
import { RateLimitExceededError } from './rate-limit-exceeded.error';

describe('RateLimitExceededError as a problem', () => {
  it('is a 429 rate-limited problem with Retry-After and the RateLimit fields', () => {
    const policy = { name: 'account', quota: 600, windowSeconds: 60 };
    const problem = toProblem(new RateLimitExceededError(policy, 17), '/projects');
    expect(problem.status).toBe(429);
    expect(problem.body).toMatchObject({
      type: '/problems/rate-limited',
      status: 429,
      instance: '/projects',
    });
    expect(problem.body.detail).toContain('17');
    expect(problem.headers).toEqual({
      'retry-after': '17',
      'ratelimit-policy': '"account";q=600;w=60',
      ratelimit: '"account";r=0;t=17',
    });
    expect(problem.unexpected).toBeUndefined();
  });
});
