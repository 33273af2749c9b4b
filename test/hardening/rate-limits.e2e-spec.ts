import { jest } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Api, type Response, startTestApp } from '../support/test-app';
import { PASSWORD, portOf, startHardenedApp } from './hardening-support';

// Sign-ups and sign-ins hash passwords (scrypt): slow on a busy machine.
jest.setTimeout(60_000);

const unique = (prefix: string) => `${prefix}-${randomBytes(6).toString('hex')}`;

/**
 * The IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers): `RateLimit-Policy:
 * "<policy>";q=<quota>;w=<window>` and `RateLimit: "<policy>";r=<remaining>;t=<reset>`.
 */
function rateLimitOf(headers: Record<string, string | undefined>) {
  const policy = /^"(\w+)";q=(\d+);w=(\d+)$/.exec(headers['ratelimit-policy'] ?? '');
  const state = /^"(\w+)";r=(\d+);t=(\d+)$/.exec(headers.ratelimit ?? '');
  if (!policy || !state) {
    throw new Error(`no RateLimit fields: ${headers['ratelimit-policy']} / ${headers.ratelimit}`);
  }
  expect(state[1]).toBe(policy[1]);
  return {
    policy: policy[1],
    quota: Number(policy[2]),
    window: Number(policy[3]),
    remaining: Number(state[2]),
    reset: Number(state[3]),
  };
}

function expectBudgetHeaders(
  response: Response,
  limit: number,
  remaining: number,
  policy = 'account',
) {
  const fields = rateLimitOf(response.headers);
  expect(fields).toMatchObject({ policy, quota: limit, window: 60, remaining });
  expect(fields.reset).toBeGreaterThanOrEqual(1);
  expect(fields.reset).toBeLessThanOrEqual(60);
}

function expectRateLimited(response: Response, limit: number, policy = 'account') {
  expect(response.status).toBe(429);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(response.body).toMatchObject({ type: '/problems/rate-limited', status: 429 });
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(rateLimitOf(response.headers)).toEqual({
    policy,
    quota: limit,
    window: 60,
    remaining: 0,
    reset: retryAfter,
  });
}

describe('rate limit per account', () => {
  let app: NestFastifyApplication;
  let api: Api;

  beforeAll(async () => {
    app = await startTestApp({ RATE_LIMIT_ACCOUNT_MAX: '5', RATE_LIMIT_WINDOW_SECONDS: '60' });
    api = new Api(app);
  });

  afterAll(() => app.close());

  it('answers the 6th call of an account within the window with 429; other accounts go on', async () => {
    const alice = await api.newAccount('alice');
    const bob = await api.newAccount('bob');

    // One budget for every route of the account.
    const paths = ['/projects', '/accounts/auth/me', '/projects', '/accounts/auth/me', '/projects'];
    for (const [index, path] of paths.entries()) {
      const response = await api.get(path, { token: alice.token });
      expect(response.status).toBe(200);
      expectBudgetHeaders(response, 5, 4 - index);
    }
    expectRateLimited(await api.get('/projects', { token: alice.token }), 5);
    expectRateLimited(
      await api.post('/projects', { title: 'Over budget' }, { token: alice.token }),
      5,
    );

    const other = await api.get('/projects', { token: bob.token });
    expect(other.status).toBe(200);
    expectBudgetHeaders(other, 5, 4);
  });
});

describe('rate limit per client address on sign-up and token', () => {
  let app: NestFastifyApplication;
  let api: Api;

  beforeAll(async () => {
    // Dual-stack, so that the same server can be called from 127.0.0.1 and from ::1.
    app = await startHardenedApp(
      { RATE_LIMIT_ANONYMOUS_MAX: '3', RATE_LIMIT_ACCOUNT_MAX: '1000' },
      { host: '::' },
    );
    api = new Api(app);
  });

  afterAll(() => app.close());

  it('answers the 4th sign-up or token request of one address with 429, even with the right password', async () => {
    const username = unique('dave');
    const signUp = await api.post('/accounts', { username, password: PASSWORD });
    expect(signUp.status).toBe(201);
    expectBudgetHeaders(signUp, 3, 2, 'address');
    const first = await api.post('/accounts/auth/token', { username, password: PASSWORD });
    expect(first.status).toBe(200);
    expectBudgetHeaders(first, 3, 1, 'address');
    expectBudgetHeaders(
      await api.post('/accounts/auth/token', { username, password: PASSWORD }),
      3,
      0,
      'address',
    );
    expectRateLimited(
      await api.post('/accounts/auth/token', { username, password: PASSWORD }),
      3,
      'address',
    );
    expectRateLimited(
      await api.post('/accounts', { username: unique('erin'), password: PASSWORD }),
      3,
      'address',
    );

    // The same server, called from another address, has its own budget.
    const fromIpv6 = await fetch(`http://[::1]:${portOf(app)}/accounts/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password: PASSWORD }),
    });
    expect(fromIpv6.status).toBe(200);
    expect(fromIpv6.headers.get('ratelimit')).toMatch(/^"address";r=2;t=\d+$/);

    // An account's own calls are not counted against its address.
    const token = ((await fromIpv6.json()) as { token: string }).token;
    const me = await api.get('/accounts/auth/me', { token });
    expect(me.status).toBe(200);
    expect(rateLimitOf(me.headers)).toMatchObject({ policy: 'account', quota: 1000 });
  });

  it('never limits the health routes and the docs', async () => {
    for (let i = 0; i < 8; i += 1) {
      for (const path of ['/health/live', '/health/ready', '/docs/openapi.json']) {
        const response = await api.get(path);
        expect(response.status).toBe(200);
        expect(response.headers.ratelimit).toBeUndefined();
        expect(response.headers['ratelimit-policy']).toBeUndefined();
      }
    }
  });
});

describe('RATE_LIMIT_ENABLED=false', () => {
  it('lets every request through without RateLimit headers', async () => {
    const app = await startTestApp({
      RATE_LIMIT_ENABLED: 'false',
      RATE_LIMIT_ACCOUNT_MAX: '1',
      RATE_LIMIT_ANONYMOUS_MAX: '1',
    });
    try {
      const api = new Api(app);
      const { token } = await api.newAccount('frank');
      for (let i = 0; i < 3; i += 1) {
        const response = await api.get('/projects', { token });
        expect(response.status).toBe(200);
        expect(response.headers.ratelimit).toBeUndefined();
        expect(response.headers['ratelimit-policy']).toBeUndefined();
      }
    } finally {
      await app.close();
    }
  });
});
