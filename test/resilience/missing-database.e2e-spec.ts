import { randomUUID } from 'node:crypto';
import { describeOutcome, send } from './support/http';
import { runUntilExit, startService, stopAllServices } from './support/service-process';

/**
 * A deployment pointed at a database, or with a role, that the server does not have: the
 * database is unavailable to the service, as when it is down (503, never a 500), and the
 * service stays up until it is set right.
 */
describe('a database or role that the server does not have', () => {
  afterAll(() => stopAllServices(), 30_000);

  const urls = () => {
    const base = process.env.LAYOUT_TEST_DATABASE_URL as string;
    const missingDatabase = new URL(base);
    missingDatabase.pathname = `/no_such_database_${randomUUID().slice(0, 8)}`;
    const missingRole = new URL(base);
    missingRole.username = `no_such_role_${randomUUID().slice(0, 8)}`;
    return { 'missing database': missingDatabase.href, 'missing role': missingRole.href };
  };

  it.each(Object.entries(urls()))('answers 503 database-unavailable for a %s', async (_, url) => {
    const service = await startService({ DATABASE_URL: url, MIGRATE_ON_START: 'false' });
    const bearer = { authorization: `Bearer ${'t'.repeat(43)}` };
    const requests = [
      { method: 'GET', path: '/health/ready' },
      { method: 'POST', path: '/accounts', body: { username: 'nobody', password: 'long enough' } },
      {
        method: 'POST',
        path: '/accounts/auth/token',
        body: { username: 'nobody', password: 'long enough' },
      },
      { method: 'GET', path: '/projects', headers: bearer },
      { method: 'GET', path: '/accounts/auth/me', headers: bearer },
    ];
    try {
      for (const request of requests) {
        const outcome = await send({ port: service.port, timeoutMs: 20_000, ...request });
        const answer = outcome.kind === 'answered' ? outcome : undefined;
        expect([request.path, answer?.status, answer?.body?.type]).toEqual([
          request.path,
          503,
          '/problems/database-unavailable',
        ]);
        if (!answer) throw new Error(describeOutcome(outcome));
      }
    } finally {
      await service.stop(2000);
    }
  });

  it('says in one sentence what to check when it cannot migrate at the start', async () => {
    const url = urls()['missing database'];
    const refused = await runUntilExit({ DATABASE_URL: url, MIGRATE_ON_START: 'true' });
    expect(refused.code).toBe(1);
    const lines = refused.output.split('\n').filter((line) => line.trim() !== '');
    // The JSON log lines aside, one plain sentence, no stack trace, no credentials.
    const plain = lines.filter((line) => !line.startsWith('{'));
    const { hostname, port, pathname } = new URL(url);
    expect(plain).toEqual([
      expect.stringMatching(
        new RegExp(
          `^The database at ${hostname}:${port || '5432'}${pathname} cannot be reached to apply ` +
            'its migrations \\(.+\\): check DATABASE_URL and that PostgreSQL runs there, then ' +
            'start again\\.$',
        ),
      ),
    ]);
  });
});
