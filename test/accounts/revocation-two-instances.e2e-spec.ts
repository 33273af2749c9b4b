import { hashAccessToken } from '../../apps/api/src/accounts/access-token';
import { query, testDatabaseUrl } from '../resilience/support/databases';
import { JsonClient } from '../resilience/support/http';
import {
  type ServiceProcess,
  startService,
  stopAllServices,
} from '../resilience/support/service-process';
import { eventually } from '../support/eventually';

const password = 'correct horse battery staple';

/**
 * Two instances of the built service, each in a process of its own, on one database, each with
 * its token cache on (as always): a token that stops working through instance A answers 401 on
 * instance B at the very next request, although B had verified it a moment before and keeps it
 * in its cache. B learns of it only from PostgreSQL's NOTIFY. (Processes, not two applications
 * in the test's process: Passport keeps one strategy per name for the whole process, so two
 * in-process applications would both check tokens through the one created last.)
 */
describe('a revoked token on two instances', () => {
  let instances: ServiceProcess[];
  let a: JsonClient;
  let b: JsonClient;

  beforeAll(async () => {
    const env = { DATABASE_URL: testDatabaseUrl() };
    instances = await Promise.all([startService(env), startService(env)]);
    [a, b] = instances.map((instance) => new JsonClient(instance.port));
  }, 120_000);
  afterAll(() => stopAllServices(), 30_000);

  const status = async (client: JsonClient, method: string, path: string, token: string) =>
    (await client.call(method, path, undefined, token)).status;
  const meOn = (client: JsonClient, token: string) =>
    status(client, 'GET', '/accounts/auth/me', token);

  /** An account and `n` more tokens for it, each verified once by B (so B caches them). */
  async function account(n: number) {
    const { username, token } = await a.newAccount('revoked');
    const tokens = [token];
    for (let i = 1; i < n; i += 1) {
      tokens.push(
        (await a.expect(200, 'POST', '/accounts/auth/token', { username, password })).token,
      );
    }
    for (const each of tokens) expect(await meOn(b, each)).toBe(200);
    return { username, tokens };
  }

  it('B answers a token it verified from its cache (the premise of the tests below)', async () => {
    const { tokens } = await account(1);
    // Deleted behind the service's back, without a notice: the database says 401...
    await query(testDatabaseUrl(), 'DELETE FROM access_tokens WHERE token_hash = $1', [
      hashAccessToken(tokens[0]),
    ]);
    expect(await meOn(a, tokens[0])).toBe(401);
    // ...B still knows it from a moment ago.
    expect(await meOn(b, tokens[0])).toBe(200);
  });

  it('signing out on A: 401 on B at once, the other token goes on', async () => {
    const { tokens } = await account(2);
    expect(await status(a, 'DELETE', '/accounts/auth/token', tokens[0])).toBe(204);
    expect(await meOn(b, tokens[0])).toBe(401);
    expect(await meOn(b, tokens[1])).toBe(200);
  });

  it('signing out everywhere on A: every token 401 on B at once', async () => {
    const { tokens } = await account(3);
    expect(await status(a, 'DELETE', '/accounts/auth/tokens', tokens[2])).toBe(204);
    for (const token of tokens) expect(await meOn(b, token)).toBe(401);
  });

  it('changing the password on A: the other tokens 401 on B at once, the one in use goes on', async () => {
    const { tokens } = await account(3);
    const changed = await a.call(
      'PUT',
      '/accounts/auth/me/password',
      { currentPassword: password, newPassword: 'another long password' },
      tokens[0],
    );
    expect(changed.status).toBe(204);
    expect(await meOn(b, tokens[1])).toBe(401);
    expect(await meOn(b, tokens[2])).toBe(401);
    expect(await meOn(b, tokens[0])).toBe(200);
  });

  it('deleting the account on A: its tokens 401 on B at once, its project 404 to others there', async () => {
    const { username, tokens } = await account(2);
    const project = await a.expect(201, 'POST', '/projects', { title: 'Gone' }, tokens[0]);
    const path = `/projects/${project._id}`;
    for (const token of tokens) expect(await status(b, 'GET', path, token)).toBe(200);
    const other = (await account(1)).tokens[0];
    expect(await status(a, 'DELETE', '/accounts/auth/me', tokens[1])).toBe(204);
    for (const token of tokens) {
      expect(await meOn(b, token)).toBe(401);
      expect(await status(b, 'GET', path, token)).toBe(401);
    }
    expect(await status(b, 'GET', path, other)).toBe(404);
    expect((await b.call('POST', '/accounts', { username, password })).status).toBe(201);
  });

  it('after losing its LISTEN connection, B serves nothing it cached before: a revocation it missed holds', async () => {
    const { tokens } = await account(1);
    const hash = hashAccessToken(tokens[0]);
    // Revoked while nobody could hear of it (no notice at all)...
    await query(testDatabaseUrl(), 'DELETE FROM access_tokens WHERE token_hash = $1', [hash]);
    expect(await meOn(b, tokens[0])).toBe(200);
    // ...and every instance's listening connection breaks.
    const cut = new Date();
    const ended = await query(
      testDatabaseUrl(),
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE application_name = 'layout-service notifications' AND datname = current_database()`,
    );
    expect(ended.length).toBe(2);
    // Both reconnect by themselves. A new connection's first heartbeat comes after its LISTEN,
    // which B answers by emptying its cache: once both have sent one, B listens again.
    await eventually(async () => {
      const listening = await query(
        testDatabaseUrl(),
        `SELECT 1 FROM pg_stat_activity
         WHERE application_name = 'layout-service notifications' AND datname = current_database()
           AND backend_start > $1 AND query = 'SELECT 1'`,
        [cut],
      );
      return listening.length === 2;
    }, 'both instances listening again');
    expect(await meOn(b, tokens[0])).toBe(401);
  }, 60_000);
});
