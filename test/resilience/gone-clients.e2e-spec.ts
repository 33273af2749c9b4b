import { randomInt } from 'node:crypto';
import { connect } from 'node:net';
import { type AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { Client, type Pool } from 'pg';
import {
  trackRequests,
  type TrackedRequest,
} from '../../apps/api/src/common/logging/request-context';
import { loadConfig } from '../../apps/api/src/config/load-config';
import { Database } from '../../apps/api/src/database/database';
import { createDatabasePool } from '../../apps/api/src/database/database-pool';
import { sqlStatement } from '../../apps/api/src/database/sql-statement';
import { eventually } from '../support/eventually';

/**
 * A request waiting for its account's share of the database leaves the line when its client
 * closes the connection: the place goes to the next request, and the gone one runs nothing.
 * A real Database on the run's PostgreSQL, behind a bare Fastify with the request context.
 */
/** The service's deadline: a request waits half of it at most for its account's share. */
const TIMEOUT_MS = 120_000;

describe('a client gone while its request waits for the database', () => {
  /** Runs for as long as the test holds the lock (`holder`). */
  const WAIT_FOR_LOCK = sqlStatement<{ key: number }>(
    'gone-clients.wait',
    'SELECT pg_advisory_xact_lock($key)',
  );
  const lock = { key: randomInt(2 ** 31) };
  let pool: Pool;
  let db: Database;
  let holder: Client;
  let app: FastifyInstance;
  let port: number;
  /** The tags of the requests that asked for the database, in the order they asked. */
  const asked: string[] = [];
  /** The tags of the requests whose statement ran, in the order they finished. */
  const ran: string[] = [];
  /** The tags of the requests whose handler is over, run or refused. */
  const over: string[] = [];

  beforeAll(async () => {
    const config = loadConfig({
      DATABASE_URL: process.env.LAYOUT_TEST_DATABASE_URL ?? '',
      // One connection for the account (half the pool); the statements end when the test says.
      DATABASE_POOL_SIZE: '2',
      DATABASE_TIMEOUT_MS: String(TIMEOUT_MS),
    });
    pool = createDatabasePool(process.env.LAYOUT_TEST_DATABASE_URL ?? '', config.database);
    db = new Database(pool, config);
    holder = new Client({ connectionString: process.env.LAYOUT_TEST_DATABASE_URL });
    await holder.connect();
    app = Fastify();
    trackRequests(app);
    app.get<{ Params: { tag: string } }>('/wait/:tag', async (request) => {
      const { tag } = request.params;
      (request as TrackedRequest).user = { id: 'one-account', username: 'one' };
      try {
        // Its place in the account's line is taken as it asks, before anything is awaited.
        const asking = db.rows(WAIT_FOR_LOCK, lock);
        asked.push(tag);
        await asking;
        ran.push(tag);
        return { ran: tag };
      } finally {
        over.push(tag);
      }
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await app.close();
    await holder.end();
    await pool.end();
  });

  it(
    'gives its place to the next in line and runs nothing',
    async () => {
      const get = (tag: string) =>
        fetch(`http://127.0.0.1:${port}/wait/${tag}`).then((response) => response.status);
      await holder.query('SELECT pg_advisory_lock($1)', [lock.key]);
      let first: Promise<number> | undefined;
      let third: Promise<number> | undefined;
      try {
        // Holds the account's one connection until the lock is released.
        first = get('first');
        await eventually(() => asked.includes('first'), 'the first request holding the share');
        // Waits behind it, then its client goes away.
        const socket = connect(port, '127.0.0.1');
        await new Promise((resolve) => socket.once('connect', resolve));
        socket.write('GET /wait/gone HTTP/1.1\r\nHost: localhost\r\n\r\n');
        await eventually(() => asked.includes('gone'), 'the second request waiting in line');
        socket.destroy();
        // Out of the line while the first still holds the connection, and long before its wait
        // for the share would have ended: it left because its client did.
        await eventually(
          () => over.includes('gone'),
          'the gone request leaving the line',
          TIMEOUT_MS / 4,
        );
        // Waits behind the first (and behind the gone one, had it kept its place).
        third = get('third');
        await eventually(() => asked.includes('third'), 'the third request waiting in line');
      } finally {
        await holder.query('SELECT pg_advisory_unlock($1)', [lock.key]);
      }
      expect(await first).toBe(200);
      expect(await third).toBe(200);
      expect(ran).toEqual(['first', 'third']);
    },
    TIMEOUT_MS,
  );
});
