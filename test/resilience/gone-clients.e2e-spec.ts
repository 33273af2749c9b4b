import { connect } from 'node:net';
import { type AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { type Pool } from 'pg';
import {
  trackRequests,
  type TrackedRequest,
} from '../../apps/api/src/common/logging/request-context';
import { loadConfig } from '../../apps/api/src/config/load-config';
import { Database } from '../../apps/api/src/database/database';
import { createDatabasePool } from '../../apps/api/src/database/database-pool';
import { sqlStatement } from '../../apps/api/src/database/sql-statement';

/**
 * A request waiting for its account's share of the database leaves the line when its client
 * closes the connection: the place goes to the next request, and the gone one runs nothing.
 * A real Database on the run's PostgreSQL, behind a bare Fastify with the request context.
 */
describe('a client gone while its request waits for the database', () => {
  const SLEEP = sqlStatement<{ seconds: number }>(
    'gone-clients.sleep',
    'SELECT pg_sleep($seconds)',
  );
  let pool: Pool;
  let db: Database;
  let app: FastifyInstance;
  let port: number;
  /** The tags of the requests whose statement ran, in the order they finished. */
  const ran: string[] = [];

  beforeAll(async () => {
    const config = loadConfig({
      DATABASE_URL: process.env.LAYOUT_TEST_DATABASE_URL ?? '',
      // One connection for the account (half the pool); a wait of up to 2 s for it.
      DATABASE_POOL_SIZE: '2',
      DATABASE_TIMEOUT_MS: '4000',
    });
    pool = createDatabasePool(process.env.LAYOUT_TEST_DATABASE_URL ?? '', config.database);
    db = new Database(pool, config);
    app = Fastify();
    trackRequests(app);
    app.get<{ Params: { tag: string; seconds: string } }>(
      '/sleep/:tag/:seconds',
      async (request) => {
        (request as TrackedRequest).user = { id: 'one-account', username: 'one' };
        await db.rows(SLEEP, { seconds: Number(request.params.seconds) });
        ran.push(request.params.tag);
        return { ran: request.params.tag };
      },
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await app.close();
    await pool.end();
  });

  it('gives its place to the next in line and runs nothing', async () => {
    const get = (tag: string, seconds: number) =>
      fetch(`http://127.0.0.1:${port}/sleep/${tag}/${seconds}`).then((response) => response.status);
    // Holds the account's one connection for a second.
    const first = get('first', 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Waits behind it, then its client goes away.
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('GET /sleep/gone/0 HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.destroy();
    // Waits behind both.
    const third = get('third', 0);

    expect(await first).toBe(200);
    expect(await third).toBe(200);
    // Had the gone request kept its place, it would have run before the third.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(ran).toEqual(['first', 'third']);
  });
});
