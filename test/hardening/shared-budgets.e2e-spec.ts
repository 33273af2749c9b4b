import { jest } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Redis } from 'ioredis';
import { RedisCounterStore } from '../../apps/api/src/common/counters/redis-counter-store';
import { eventually } from '../support/eventually';
import { Api } from '../support/test-app';
import { closedPort, PASSWORD, startHardenedApp, startRelay } from './hardening-support';

// Sign-ups and sign-ins hash passwords (scrypt): slow on a busy machine.
jest.setTimeout(60_000);

// The machine's Redis (see README, Tests); every run keeps to keys of its own prefix.
const REDIS_URL = process.env.LAYOUT_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const KEY_PREFIX = `layout-test:${Date.now().toString(36)}-${randomBytes(4).toString('hex')}:`;
const unique = (prefix: string) => `${prefix}-${randomBytes(6).toString('hex')}`;

let redis: Redis;

beforeAll(async () => {
  redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect().catch((error: unknown) => {
    throw new Error(
      `These tests need Redis at ${REDIS_URL} (set LAYOUT_TEST_REDIS_URL, or start one: ` +
        `redis-server --daemonize yes --port 6379 --save ""): ${String(error)}`,
    );
  });
});

afterAll(async () => {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${KEY_PREFIX}*`, 'COUNT', 1000);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
  await redis.quit();
});

describe('RedisCounterStore', () => {
  it('counts atomically within a window that the first increment opens', async () => {
    const store = new RedisCounterStore(redis, `${KEY_PREFIX}store:`);
    const counts = await Promise.all(
      Array.from({ length: 50 }, () => store.increment('burst', 60_000)),
    );
    expect(counts.map(({ count }) => count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 50 }, (_, index) => index + 1),
    );
    for (const { resetInMs } of counts) {
      expect(resetInMs).toBeGreaterThan(55_000);
      expect(resetInMs).toBeLessThanOrEqual(60_000);
    }
    const ttl = await redis.pttl(`${KEY_PREFIX}store:burst`);
    expect(ttl).toBeGreaterThan(55_000);
    await expect(store.peek('burst')).resolves.toMatchObject({ count: 50 });
  });

  it('closes windows when they expire or are reset', async () => {
    const store = new RedisCounterStore(redis, `${KEY_PREFIX}store:`);
    expect((await store.increment('short', 50)).resetInMs).toBeLessThanOrEqual(50);
    await eventually(
      async () => (await store.peek('short')) === undefined,
      'the window to close once expired',
    );
    await expect(store.increment('short', 60_000)).resolves.toMatchObject({ count: 1 });
    await store.reset('short');
    await expect(store.peek('short')).resolves.toBeUndefined();
  });

  it('gives a counter left without expiry one', async () => {
    const store = new RedisCounterStore(redis, `${KEY_PREFIX}store:`);
    await redis.set(`${KEY_PREFIX}store:stuck`, '7');
    await expect(store.increment('stuck', 60_000)).resolves.toMatchObject({
      count: 8,
      resetInMs: 60_000,
    });
    expect(await redis.pttl(`${KEY_PREFIX}store:stuck`)).toBeGreaterThan(0);
  });
});

describe('two instances on one Redis', () => {
  let first: NestFastifyApplication;
  let second: NestFastifyApplication;
  let one: Api;
  let two: Api;

  beforeAll(async () => {
    const env = {
      REDIS_URL,
      REDIS_KEY_PREFIX: KEY_PREFIX,
      RATE_LIMIT_ACCOUNT_MAX: '6',
      RATE_LIMIT_ANONYMOUS_MAX: '1000',
    };
    first = await startHardenedApp(env);
    second = await startHardenedApp(env);
    one = new Api(first);
    two = new Api(second);
  });

  afterAll(async () => {
    await first.close();
    await second.close();
  });

  it('count the calls of one account against one budget', async () => {
    const { token } = await one.newAccount('grace');
    const remaining: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      const response = await (i % 2 === 0 ? one : two).get('/projects', { token });
      expect(response.status).toBe(200);
      remaining.push(/;r=(\d+);/.exec(response.headers.ratelimit ?? '')?.[1] ?? '');
    }
    expect(remaining).toEqual(['5', '4', '3', '2', '1', '0']);
    for (const api of [one, two]) {
      const limited = await api.get('/projects', { token });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    }
    const keys = await redis.keys(`${KEY_PREFIX}rl:account:*`);
    expect(keys).toHaveLength(1);
  });

  it('count the failed sign-ins of one username at one address together', async () => {
    const username = unique('heidi');
    expect((await one.post('/accounts', { username, password: PASSWORD })).status).toBe(201);
    // The free failures, then the first one past them, which imposes a wait: three on each
    // instance, six in all.
    for (let i = 0; i < 6; i += 1) {
      const attempt = await (i % 2 === 0 ? one : two).post('/accounts/auth/token', {
        username,
        password: `wrong guess ${i}`,
      });
      expect(attempt.status).toBe(401);
    }
    // Usernames are not written to Redis as such.
    const failureKeys = await redis.keys(`${KEY_PREFIX}login-failures:*`);
    expect(failureKeys.length).toBeGreaterThan(0);
    expect(failureKeys.join()).not.toContain(username);
    // The wait lives in Redis: made longer there, every instance keeps to it (neither has
    // counted one this long itself), even with the right password.
    const waitKeys = await redis.keys(`${KEY_PREFIX}login-wait:pair:*`);
    expect(waitKeys).toHaveLength(1);
    await redis.pexpire(waitKeys[0], 120_000);
    for (const api of [one, two]) {
      const refused = await api.post('/accounts/auth/token', { username, password: PASSWORD });
      expect(refused.status).toBe(429);
      expect(refused.body.type).toBe('/problems/rate-limited');
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(110);
      expect(retryAfter).toBeLessThanOrEqual(120);
    }
    // Once it is over (here: taken away), the right password gets a token again.
    await redis.del(waitKeys[0]);
    expect((await two.post('/accounts/auth/token', { username, password: PASSWORD })).status).toBe(
      200,
    );
  });

  it('a success on one instance clears the failures for every instance', async () => {
    const username = unique('ivan');
    expect((await one.post('/accounts', { username, password: PASSWORD })).status).toBe(201);
    for (let i = 0; i < 5; i += 1) {
      const attempt = await one.post('/accounts/auth/token', {
        username,
        password: `wrong guess ${i}`,
      });
      expect(attempt.status).toBe(401);
    }
    expect((await two.post('/accounts/auth/token', { username, password: PASSWORD })).status).toBe(
      200,
    );
    // Five more on the first instance (which had counted five itself) cost nothing either.
    for (let i = 0; i < 5; i += 1) {
      const attempt = await one.post('/accounts/auth/token', { username, password: `again ${i}` });
      expect(attempt.status).toBe(401);
    }
    expect((await one.post('/accounts/auth/token', { username, password: PASSWORD })).status).toBe(
      200,
    );
  });
});

describe('a Redis outage', () => {
  it('turns the shared budgets into per-instance ones, without failing requests', async () => {
    const target = new URL(REDIS_URL);
    const relay = await startRelay({ host: target.hostname, port: Number(target.port || 6379) });
    const relayed = new URL(REDIS_URL);
    relayed.hostname = '127.0.0.1';
    relayed.port = String(relay.port);
    const app = await startHardenedApp({
      REDIS_URL: relayed.toString(),
      REDIS_KEY_PREFIX: KEY_PREFIX,
      RATE_LIMIT_ACCOUNT_MAX: '3',
      RATE_LIMIT_ANONYMOUS_MAX: '1000',
    });
    try {
      const api = new Api(app);
      const { token, username } = await api.newAccount('judy');
      const before = await api.get('/projects', { token });
      expect(before.headers.ratelimit).toMatch(/^"account";r=2;t=\d+$/);

      await relay.cut();
      // Counted in memory from now on: a fresh window, still enforced.
      const during: number[] = [];
      for (let i = 0; i < 4; i += 1) during.push((await api.get('/projects', { token })).status);
      expect(during).toEqual([200, 200, 200, 429]);
      const wrong = await api.post('/accounts/auth/token', { username, password: 'not it at all' });
      expect(wrong.status).toBe(401);
      const right = await api.post('/accounts/auth/token', { username, password: PASSWORD });
      expect(right.status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('does not stop a start: the service serves with in-memory counters', async () => {
    const app = await startHardenedApp({
      REDIS_URL: `redis://127.0.0.1:${await closedPort()}`,
      RATE_LIMIT_ACCOUNT_MAX: '2',
      RATE_LIMIT_ANONYMOUS_MAX: '1000',
    });
    try {
      const api = new Api(app);
      const { token } = await api.newAccount('mallory');
      const statuses: number[] = [];
      for (let i = 0; i < 3; i += 1) statuses.push((await api.get('/projects', { token })).status);
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await app.close();
    }
  });
});
