import { jest } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { Api, startTestApp } from '../support/test-app';

const password = 'a long enough password';
const unique = (prefix: string) => `${prefix}-${randomBytes(5).toString('hex')}`;

/** Runs one statement on the run's test database, outside the service. */
async function sql(text: string, values: unknown[] = []) {
  const client = new Client({ connectionString: process.env.LAYOUT_TEST_DATABASE_URL });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

describe('sign out, sign out everywhere, change password, delete the account', () => {
  let app: NestFastifyApplication;
  let api: Api;

  beforeAll(async () => {
    app = await startTestApp();
    api = new Api(app);
  });
  afterAll(() => app.close());

  /** A new account and `n` tokens for it, each already used once (so the instance caches it). */
  async function accountWithTokens(n: number) {
    const username = unique('owner');
    const created = await api.post('/accounts', { username, password });
    expect(created.status).toBe(201);
    const tokens: string[] = [];
    for (let i = 0; i < n; i += 1) {
      const issued = await api.post('/accounts/auth/token', { username, password });
      expect(issued.status).toBe(200);
      tokens.push(issued.body.token);
      expect((await api.get('/accounts/auth/me', { token: issued.body.token })).status).toBe(200);
    }
    return { username, id: created.body._id as string, tokens };
  }

  const me = (token: string) => api.get('/accounts/auth/me', { token });

  it('gives no project to an account deleted between its token check and the write: 401, nothing made', async () => {
    const { id, tokens } = await accountWithTokens(1);
    const [token] = tokens;
    const original = await api.post('/projects', { title: 'Before' }, { token });
    expect(original.status).toBe(201);
    // The deletion's mark lands while this instance still holds the token it verified: the
    // window between a request's token check and its write, held open.
    await sql('UPDATE accounts SET deleted_at = now() WHERE id = $1', [id]);
    const created = await api.post('/projects', { title: 'After' }, { token });
    const copied = await api.post(
      `${original.headers.location as string}/duplicate`,
      {},
      { token },
    );
    for (const refused of [created, copied]) {
      expect([refused.status, refused.body.type]).toEqual([401, '/problems/unauthorized']);
    }
    expect(await sql('SELECT title FROM projects WHERE owner_id = $1', [id])).toEqual([
      { title: 'Before' },
    ]);
  });

  it('signs out: the token in use answers 401 from then on, the others keep working', async () => {
    const { tokens } = await accountWithTokens(2);
    const signOut = await api.delete('/accounts/auth/token', { token: tokens[0] });
    expect(signOut.status).toBe(204);
    expect(signOut.text).toBe('');
    const after = await me(tokens[0]);
    expect(after.status).toBe(401);
    expect(after.headers['www-authenticate']).toContain('error="invalid_token"');
    expect((await me(tokens[1])).status).toBe(200);
    // Signing out again with it is like any other call with a dead token.
    expect((await api.delete('/accounts/auth/token', { token: tokens[0] })).status).toBe(401);
  });

  it('signs out everywhere: every token of the account answers 401, other accounts keep theirs', async () => {
    const { tokens } = await accountWithTokens(3);
    const other = await accountWithTokens(1);
    expect((await api.delete('/accounts/auth/tokens', { token: tokens[1] })).status).toBe(204);
    for (const token of tokens) expect((await me(token)).status).toBe(401);
    expect((await me(other.tokens[0])).status).toBe(200);
  });

  it('changes the password: the token in use keeps working, the others and the old password do not', async () => {
    const { username, tokens } = await accountWithTokens(3);
    const newPassword = 'an even longer new password';
    const changed = await api.put(
      '/accounts/auth/me/password',
      { currentPassword: password, newPassword },
      { token: tokens[0] },
    );
    expect(changed.status).toBe(204);
    expect((await me(tokens[0])).status).toBe(200);
    for (const token of tokens.slice(1)) expect((await me(token)).status).toBe(401);
    expect((await api.post('/accounts/auth/token', { username, password })).status).toBe(401);
    const fresh = await api.post('/accounts/auth/token', { username, password: newPassword });
    expect(fresh.status).toBe(200);
    const stored = await sql('SELECT password_hash FROM accounts WHERE username_key = lower($1)', [
      username,
    ]);
    expect(stored[0].password_hash).toMatch(/^scrypt\$/);
    expect(stored[0].password_hash).not.toContain(newPassword);
  });

  it('refuses a wrong current password with 403 wrong-password and changes nothing', async () => {
    const { username, tokens } = await accountWithTokens(2);
    const refused = await api.put(
      '/accounts/auth/me/password',
      { currentPassword: 'not the password', newPassword: 'whatever new password' },
      { token: tokens[0] },
    );
    expect(refused.status).toBe(403);
    expect(refused.body.type).toBe('/problems/wrong-password');
    expect(refused.headers['www-authenticate']).toBeUndefined();
    expect((await me(tokens[1])).status).toBe(200);
    expect((await api.post('/accounts/auth/token', { username, password })).status).toBe(200);
  });

  it.each([
    [{ currentPassword: password }, '/newPassword'],
    [{ currentPassword: password, newPassword: 'short' }, '/newPassword'],
    [{ newPassword: 'a long enough new one' }, '/currentPassword'],
    [
      { currentPassword: password, newPassword: 'a long enough new one', username: 'x' },
      '/username',
    ],
  ])('refuses the password change %j with 400 at %s', async (body, pointer) => {
    const { tokens } = await accountWithTokens(1);
    const refused = await api.put('/accounts/auth/me/password', body, { token: tokens[0] });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
  });

  it('answers every account operation without a token with 401', async () => {
    for (const [method, path] of [
      ['DELETE', '/accounts/auth/token'],
      ['DELETE', '/accounts/auth/tokens'],
      ['PUT', '/accounts/auth/me/password'],
      ['DELETE', '/accounts/auth/me'],
    ]) {
      const body =
        method === 'PUT' ? { currentPassword: password, newPassword: 'a new password' } : undefined;
      const response = await api.request(method, path, { body });
      expect({ method, path, status: response.status }).toEqual({ method, path, status: 401 });
    }
  });

  it('deletes the account: 204, its tokens answer 401, its projects exist for nobody, its name is free', async () => {
    const { username, id, tokens } = await accountWithTokens(2);
    const project = await api.post('/projects', { title: 'To be deleted' }, { token: tokens[0] });
    expect(project.status).toBe(201);
    const path = `/projects/${project.body._id}`;
    const stranger = (await accountWithTokens(1)).tokens[0];

    const deleted = await api.delete('/accounts/auth/me', { token: tokens[0] });
    expect(deleted.status).toBe(204);
    for (const token of tokens) {
      expect((await me(token)).status).toBe(401);
      expect((await api.get(path, { token })).status).toBe(401);
    }
    expect((await api.get(path, { token: stranger })).status).toBe(404);
    expect((await api.post('/accounts/auth/token', { username, password })).status).toBe(401);

    // The name is free at once; the new account is another one, owning nothing.
    const again = await api.post('/accounts', { username, password });
    expect(again.status).toBe(201);
    expect(again.body._id).not.toBe(id);
    const newToken = (await api.post('/accounts/auth/token', { username, password })).body.token;
    expect((await api.get('/projects', { token: newToken })).body).toEqual([]);
    expect((await api.get(path, { token: newToken })).status).toBe(404);
  });

  it('refuses to delete the account with a token older than 5 minutes: 403, nothing deleted', async () => {
    const username = unique('old');
    expect((await api.post('/accounts', { username, password })).status).toBe(201);
    const old = (await api.post('/accounts/auth/token', { username, password })).body.token;
    await sql(
      `UPDATE access_tokens SET created_at = now() - interval '5 minutes 1 second'
       WHERE account_id = (SELECT id FROM accounts WHERE username_key = lower($1))`,
      [username],
    );
    const refused = await api.delete('/accounts/auth/me', { token: old });
    expect(refused.status).toBe(403);
    expect(refused.body.type).toBe('/problems/recent-sign-in-required');
    expect(refused.body.detail).toMatch(/last 5 minutes/);
    expect((await me(old)).status).toBe(200);

    // A new sign-in is recent enough.
    const recent = (await api.post('/accounts/auth/token', { username, password })).body.token;
    expect((await api.delete('/accounts/auth/me', { token: recent })).status).toBe(204);
  });
});

describe('the password change counts as a sign-in', () => {
  let app: NestFastifyApplication;
  let api: Api;
  let now: number;

  beforeAll(async () => {
    app = await startTestApp();
    api = new Api(app);
  });
  afterAll(() => app.close());

  // The server's clock is this process's, stopped: no wait runs out during the test.
  beforeEach(() => {
    now = Date.now();
    jest.spyOn(Date, 'now').mockImplementation(() => now);
  });
  afterEach(() => jest.restoreAllMocks());

  it('makes the address wait after the free failures, also for the right password and for sign-ins', async () => {
    const username = unique('changer');
    await api.post('/accounts', { username, password });
    const token = (await api.post('/accounts/auth/token', { username, password })).body.token;
    const change = (currentPassword: string) =>
      api.put(
        '/accounts/auth/me/password',
        { currentPassword, newPassword: 'a brand new password' },
        { token },
      );
    for (let i = 0; i < 6; i += 1) expect((await change(`guess ${i}`)).status).toBe(403);
    const waiting = await change(password);
    expect(waiting.status).toBe(429);
    expect(waiting.body.type).toBe('/problems/rate-limited');
    expect(waiting.headers['retry-after']).toBe('1');
    // One count: the token endpoint waits too, for this username at this address.
    expect((await api.post('/accounts/auth/token', { username, password })).status).toBe(429);

    now += 1000;
    expect((await change(password)).status).toBe(204);
  });
});
