import { randomBytes } from 'node:crypto';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { hashAccessToken } from '../../apps/api/src/accounts/access-token';
import { AccessTokenCache } from '../../apps/api/src/accounts/access-token-cache';
import { TOKEN_REVOCATIONS_CHANNEL } from '../../apps/api/src/accounts/token-revocation';
import { DatabaseNotifications } from '../../apps/api/src/database/notifications';
import { Api, startTestApp } from '../support/test-app';

const password = 'a long enough password';

/** Polls `condition` until it holds, within `withinMs` (no fixed sleep: it stops as soon as it does). */
async function eventually(
  condition: () => boolean | Promise<boolean>,
  what: string,
  withinMs = 20_000,
) {
  const deadline = Date.now() + withinMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not within ${withinMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Two instances of the service on one database, each with its token cache on (as always): a
 * token that stops working through instance A answers 401 on instance B on the very next
 * request, although B had it in its cache. What B learns, it learns from PostgreSQL's NOTIFY.
 */
describe('a revoked token on two instances', () => {
  let a: Api;
  let b: Api;
  let apps: NestFastifyApplication[];
  let cacheOfB: AccessTokenCache;
  let notificationsOfB: DatabaseNotifications;

  beforeAll(async () => {
    apps = await Promise.all([startTestApp(), startTestApp()]);
    [a, b] = apps.map((app) => new Api(app));
    cacheOfB = apps[1].get(AccessTokenCache);
    notificationsOfB = apps[1].get(DatabaseNotifications);
  });
  afterAll(() => Promise.all(apps.map((app) => app.close())));

  async function account(tokens: number) {
    const username = `revoked-${randomBytes(5).toString('hex')}`;
    const created = await a.post('/accounts', { username, password });
    expect(created.status).toBe(201);
    const issued: string[] = [];
    for (let i = 0; i < tokens; i += 1) {
      issued.push((await a.post('/accounts/auth/token', { username, password })).body.token);
    }
    return { username, tokens: issued };
  }

  /** B answers the token from its cache from now on: the test's premise, checked. */
  async function cachedOnB(token: string) {
    expect(notificationsOfB.isListening(TOKEN_REVOCATIONS_CHANNEL)).toBe(true);
    expect((await b.get('/accounts/auth/me', { token })).status).toBe(200);
    expect(cacheOfB.get(hashAccessToken(token))).toBeDefined();
  }

  const onB = (token: string) => b.get('/accounts/auth/me', { token });

  it('signing out on A: 401 on B at once', async () => {
    const { tokens } = await account(2);
    for (const token of tokens) await cachedOnB(token);
    expect((await a.delete('/accounts/auth/token', { token: tokens[0] })).status).toBe(204);
    expect((await onB(tokens[0])).status).toBe(401);
    expect((await onB(tokens[1])).status).toBe(200);
  });

  it('signing out everywhere on A: every token 401 on B at once', async () => {
    const { tokens } = await account(3);
    for (const token of tokens) await cachedOnB(token);
    expect((await a.delete('/accounts/auth/tokens', { token: tokens[2] })).status).toBe(204);
    for (const token of tokens) expect((await onB(token)).status).toBe(401);
  });

  it('changing the password on A: the other tokens 401 on B at once, the one in use goes on', async () => {
    const { tokens } = await account(3);
    for (const token of tokens) await cachedOnB(token);
    const changed = await a.put(
      '/accounts/auth/me/password',
      { currentPassword: password, newPassword: 'another long password' },
      { token: tokens[0] },
    );
    expect(changed.status).toBe(204);
    expect((await onB(tokens[1])).status).toBe(401);
    expect((await onB(tokens[2])).status).toBe(401);
    expect((await onB(tokens[0])).status).toBe(200);
  });

  it('deleting the account on A: its tokens 401 on B at once, its project 404 for others there', async () => {
    const { username, tokens } = await account(2);
    const project = await a.post('/projects', { title: 'Gone' }, { token: tokens[0] });
    const path = `/projects/${project.body._id}`;
    for (const token of tokens) {
      await cachedOnB(token);
      expect((await b.get(path, { token })).status).toBe(200);
    }
    const other = (await account(1)).tokens[0];
    expect((await a.delete('/accounts/auth/me', { token: tokens[1] })).status).toBe(204);
    for (const token of tokens) {
      expect((await onB(token)).status).toBe(401);
      expect((await b.get(path, { token })).status).toBe(401);
    }
    expect((await b.get(path, { token: other })).status).toBe(404);
    expect((await b.post('/accounts', { username, password })).status).toBe(201);
  });

  it('after losing its connection, B serves no token from before: a revocation it missed holds', async () => {
    const { tokens } = await account(1);
    await cachedOnB(tokens[0]);
    const before = cacheOfB.currentGeneration();
    const client = new Client({ connectionString: process.env.LAYOUT_TEST_DATABASE_URL });
    await client.connect();
    try {
      // Revoked behind every instance's back: no notification, so B cannot hear of it...
      await client.query('DELETE FROM access_tokens WHERE token_hash = $1', [
        hashAccessToken(tokens[0]),
      ]);
      expect(cacheOfB.get(hashAccessToken(tokens[0]))).toBeDefined();
      // ...and B's (and A's) listening connection breaks.
      const ended = await client.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE application_name = 'layout-service notifications' AND datname = current_database()`,
      );
      expect(ended.rows.length).toBeGreaterThanOrEqual(2);
    } finally {
      await client.end();
    }
    // B reconnects by itself; once it listens again, it has forgotten what it cached before.
    await eventually(
      () =>
        notificationsOfB.isListening(TOKEN_REVOCATIONS_CHANNEL) &&
        cacheOfB.currentGeneration() > before,
      'B listens again',
    );
    expect((await onB(tokens[0])).status).toBe(401);
  });
});
