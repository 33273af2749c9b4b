import { randomBytes } from 'node:crypto';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { Api, startTestApp } from './support/test-app';

const password = 'a long enough password';
const unique = (prefix: string) => `${prefix}-${randomBytes(5).toString('hex')}`;

describe('accounts and tokens', () => {
  let app: NestFastifyApplication;
  let api: Api;

  beforeAll(async () => {
    app = await startTestApp();
    api = new Api(app);
  });
  afterAll(() => app.close());

  it('signs up with 201 and exactly _id, username, createdAt', async () => {
    const username = unique('Alice');
    const response = await api.post('/accounts', { username, password });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      _id: expect.any(String),
      username,
      createdAt: expect.any(String),
    });
    expect(new Date(response.body.createdAt).toISOString()).toBe(response.body.createdAt);
  });

  it('refuses a taken username regardless of case with 409', async () => {
    const username = unique('bob');
    expect((await api.post('/accounts', { username, password })).status).toBe(201);
    const response = await api.post('/accounts', { username: username.toUpperCase(), password });
    expect(response.status).toBe(409);
    expect(response.body.type).toBe('/problems/username-taken');
  });

  it('lets exactly one of two simultaneous sign-ups for one name win', async () => {
    const username = unique('race');
    const responses = await Promise.all([
      api.post('/accounts', { username, password }),
      api.post('/accounts', { username, password }),
    ]);
    expect(responses.map((r) => r.status).sort()).toEqual([201, 409]);
  });

  it.each([
    [{ username: 'ab', password }, '/username'],
    [{ username: 'x'.repeat(255), password }, '/username'],
    [{ username: unique('c'), password: 'short' }, '/password'],
    [{ username: unique('c'), password: 'p'.repeat(257) }, '/password'],
    [{ username: unique('c') }, '/password'],
    [{ username: unique('c'), password, admin: true }, '/admin'],
  ])('rejects sign-up %j with 400 at %s', async (body, pointer) => {
    const response = await api.post('/accounts', body);
    expect(response.status).toBe(400);
    expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
  });

  it('issues a bearer token that identifies the account', async () => {
    const username = unique('carol');
    const account = (await api.post('/accounts', { username, password })).body;
    const response = await api.post('/accounts/auth/token', {
      username: username.toUpperCase(),
      password,
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      token: expect.any(String),
      tokenType: 'Bearer',
      expiresIn: 3600,
    });
    const me = await api.get('/accounts/auth/me', { token: response.body.token });
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ _id: account._id, username });
  });

  it('answers a wrong password and an unknown username with the same 401', async () => {
    const username = unique('dave');
    await api.post('/accounts', { username, password });
    const wrongPassword = await api.post('/accounts/auth/token', {
      username,
      password: 'not the password',
    });
    const unknownUser = await api.post('/accounts/auth/token', {
      username: unique('nobody'),
      password,
    });
    expect(wrongPassword.status).toBe(401);
    expect(unknownUser.status).toBe(401);
    const { instance: _a, ...first } = wrongPassword.body;
    const { instance: _b, ...second } = unknownUser.body;
    expect(first).toEqual(second);
    expect(first.type).toBe('/problems/invalid-credentials');
  });

  it('slows down repeated failures for one username with 429 and Retry-After', async () => {
    const username = unique('eve');
    await api.post('/accounts', { username, password });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push(
        (await api.post('/accounts/auth/token', { username, password: `guess-${i}-guess` })).status,
      );
    }
    expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
    const limited = await api.post('/accounts/auth/token', { username, password });
    expect(limited.status).toBe(429);
    expect(limited.body.type).toBe('/problems/rate-limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('refuses an expired token with 401 invalid_token', async () => {
    const { token, id } = await api.newAccount();
    const client = new Client({ connectionString: process.env.LAYOUT_TEST_DATABASE_URL });
    await client.connect();
    try {
      await client.query(
        `UPDATE access_tokens SET expires_at = now() - interval '1 second' WHERE account_id = $1`,
        [id],
      );
    } finally {
      await client.end();
    }
    const response = await api.get('/accounts/auth/me', { token });
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toContain('error="invalid_token"');
  });

  it('stores neither the password nor the token in clear', async () => {
    const username = unique('frank');
    const secret = 'a very secret password';
    await api.post('/accounts', { username, password: secret });
    const { token } = (await api.post('/accounts/auth/token', { username, password: secret })).body;
    const client = new Client({ connectionString: process.env.LAYOUT_TEST_DATABASE_URL });
    await client.connect();
    try {
      const { rows } = await client.query(
        `SELECT a.password_hash, t.token_hash FROM accounts a JOIN access_tokens t ON t.account_id = a.id WHERE a.username = $1`,
        [username],
      );
      expect(rows[0].password_hash).toMatch(/^scrypt\$/);
      expect(rows[0].password_hash).not.toContain(secret);
      expect(rows[0].token_hash).not.toBe(token);
    } finally {
      await client.end();
    }
  });
});

describe('accounts with sign-up switched off', () => {
  it('answers sign-up with 404', async () => {
    const app = await startTestApp({ SIGNUP_ENABLED: 'false' });
    try {
      const response = await new Api(app).post('/accounts', { username: unique('gina'), password });
      expect(response.status).toBe(404);
      expect(response.body.type).toBe('/problems/not-found');
    } finally {
      await app.close();
    }
  });
});
