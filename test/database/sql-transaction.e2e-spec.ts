import { randomInt } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { Client } from 'pg';
import {
  DatabaseUnavailableError,
  TooManyConcurrentRequestsError,
  WriteOutcomeUnknownError,
} from '../../apps/api/src/common/errors';
import { asPartOf, type TrackedRequest } from '../../apps/api/src/common/logging/request-context';
import { isDatabaseUnavailable } from '../../apps/api/src/common/errors/database-unavailability';
import { type Round } from '../../apps/api/src/database/unit-of-work';
import {
  DIE,
  NO_SERVER_TIMEOUT,
  openProbeDatabase,
  slowCommitWhen,
} from './support/probe-database';
import { eventually } from '../support/eventually';

/** Database.transaction, the one unit of work of the layout services, on a real database. */
describe('Database.transaction', () => {
  const TIMEOUT_MS = 600;
  const probe = openProbeDatabase('sql_tx_probe', TIMEOUT_MS);
  const { table, db, statement } = probe;
  const CREATE = statement('create', `CREATE TABLE ${table} (n int PRIMARY KEY)`);
  const INSERT = statement<{ first: number; second: number }>(
    'insert',
    `INSERT INTO ${table} VALUES ($first), ($second)`,
  );
  const COUNT = statement<object, { count: number }>(
    'count',
    `SELECT count(*)::int AS count FROM ${table}`,
  );
  const ALL = statement<object, { n: number }>('all', `SELECT n FROM ${table} ORDER BY n`);
  const PING = statement('ping', 'SELECT 1');
  /** Waits for as long as the test holds `lock` (see holdLock): a statement that hangs. */
  const WAIT_FOR_LOCK = statement<{ key: number }>('wait', 'SELECT pg_advisory_xact_lock($key)');
  const lock = { key: randomInt(2 ** 31) };
  let holder: Client;
  /** Takes the lock the hanging statements wait for, on a connection of the test's own. */
  const holdLock = async () => {
    await holder.query('SELECT pg_advisory_lock($1)', [lock.key]);
    return () => holder.query('SELECT pg_advisory_unlock($1)', [lock.key]);
  };

  const stored = async () => (await db.rows(ALL, {})).map((row) => row.n);
  const ping = (round: Round) => {
    round.rows(PING, {});
    return round.finish(() => undefined);
  };

  beforeAll(async () => {
    // The killed connection's warning is expected here; keep the test output quiet.
    Logger.overrideLogger(false);
    await db.rows(CREATE, {});
    await slowCommitWhen(probe, 'INSERT', 'NEW.n = 100');
    holder = new Client({ connectionString: process.env.LAYOUT_TEST_DATABASE_URL });
    await holder.connect();
  });
  afterAll(async () => {
    await holder.end();
    await probe.close(`DROP FUNCTION IF EXISTS ${table}_slow()`);
  });

  it('commits what the work did and answers its result', async () => {
    const result = await db.transaction((round) => {
      round.rows(INSERT, { first: 1, second: 2 });
      const counted = round.row(COUNT, {});
      return round.finish(() => counted.get()?.count);
    });
    expect(result).toBe(2);
    expect(await stored()).toEqual([1, 2]);
  });

  it('rolls everything back when the work throws, and rethrows', async () => {
    class Refused extends Error {}
    await expect(
      db.transaction((round) => {
        round.rows(INSERT, { first: 3, second: 4 });
        return round.finish(() => {
          throw new Refused('no');
        });
      }),
    ).rejects.toBeInstanceOf(Refused);
    expect(await stored()).toEqual([1, 2]);
  });

  it('rolls back a failed statement, leaving the connection usable', async () => {
    await expect(
      db.transaction((round) => {
        round.rows(INSERT, { first: 5, second: 1 });
        return round.finish(() => undefined);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    // Both pooled connections work afterwards (no transaction left open on either).
    await Promise.all([1, 2].map(() => db.transaction(ping)));
    expect(await stored()).toEqual([1, 2]);
  });

  it('drops a connection that broke mid-transaction instead of reusing it', async () => {
    const failure = await db
      .transaction((round) => {
        round.rows(INSERT, { first: 6, second: 7 });
        round.rows(DIE, {});
        return round.finish(() => undefined);
      })
      .catch((error: unknown) => error);
    expect(isDatabaseUnavailable(failure)).toBe(true);
    // Every later transaction gets a working connection, and nothing of the broken one stayed.
    for (let i = 0; i < 4; i++) await db.transaction(ping);
    expect(await stored()).toEqual([1, 2]);
  });

  it('answers 503 at the deadline when a statement hangs, and drops that connection', async () => {
    const release = await holdLock();
    const startedAt = Date.now();
    let failure: unknown;
    try {
      failure = await db
        .transaction((round) => {
          round.rows(NO_SERVER_TIMEOUT, {});
          round.rows(INSERT, { first: 20, second: 21 });
          round.rows(WAIT_FOR_LOCK, lock);
          return round.finish(() => undefined);
        })
        .catch((error: unknown) => error);
    } finally {
      // Only now can the statement end by itself: the answer came from the deadline.
      await release();
    }
    expect(failure).toBeInstanceOf(DatabaseUnavailableError);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(TIMEOUT_MS);
    for (let i = 0; i < 4; i++) await db.transaction(ping);
    expect(await stored()).toEqual([1, 2]);
  });

  it('says the outcome is unknown when COMMIT was sent and did not answer in time', async () => {
    const failure = await db
      .transaction((round) => {
        round.rows(NO_SERVER_TIMEOUT, {});
        round.rows(INSERT, { first: 100, second: 101 });
        return round.finish(() => undefined);
      })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(WriteOutcomeUnknownError);
    // And indeed it commits, after the service stopped waiting: a "failed" answer would have
    // been a lie.
    await eventually(
      async () => (await stored()).join() === [1, 2, 100, 101].join(),
      'the slow COMMIT to land',
    );
  });

  it("keeps one caller's statements within half of the pool, refusing what waits too long", async () => {
    // No request here: every call counts as one and the same caller, whose share is 2 of 4.
    // The two hold their connections, waiting for the test's lock, for longer than a caller
    // waits for its share (half the deadline): until their deadline cuts them off.
    const release = await holdLock();
    const holding = Promise.allSettled([1, 2].map(() => db.rows(WAIT_FOR_LOCK, lock)));
    try {
      const third = await db.rows(PING, {}).catch((error: unknown) => error);
      expect(third).toBeInstanceOf(TooManyConcurrentRequestsError);
    } finally {
      await release();
      await holding;
    }
    // Past the wait, the share is free again.
    await expect(db.rows(PING, {})).resolves.toHaveLength(1);
  });

  it("charges an account's heavy reads by their time too, only while another account is active", async () => {
    // Over 1 MiB (a heavy answer, 0.13 s of the byte budget) after 0.2 s.
    const LARGE = statement<{ seconds: number }, { json: string }>(
      'large',
      `SELECT repeat('x', 1100000) AS json, pg_sleep($seconds)::text AS slept`,
    );
    // A request of that account, from a client that has no socket to go away on.
    const as = <T>(account: string, work: () => Promise<T>) =>
      asPartOf({ user: { id: account, username: account }, raw: {} } as TrackedRequest, work);
    const large = (account: string) =>
      as(account, () => db.rows(LARGE, { seconds: 0.2 })).catch((error: unknown) => error);
    // Alone on the instance, an account's next heavy read waits for its bytes only: it runs.
    await large('reader');
    expect(await large('reader')).toHaveLength(1);
    // Once another account is active, the 0.2 s it took are charged four times over, longer
    // than a caller waits for its turn (half the deadline): the next one is refused.
    await as('other', () => db.rows(PING, {}));
    expect(await large('reader')).toHaveLength(1);
    expect(await large('reader')).toBeInstanceOf(TooManyConcurrentRequestsError);
    // The other account's reads, light or heavy, are not held up by the reader's budget.
    await expect(as('other', () => db.rows(PING, {}))).resolves.toHaveLength(1);
    expect(await large('other')).toHaveLength(1);
  });

  it('refuses a statement run without one of its parameters', async () => {
    await expect(db.rows(INSERT, { first: 8 } as never)).rejects.toThrow('no value for $second');
  });
});
