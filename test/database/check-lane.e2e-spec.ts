import { Logger } from '@nestjs/common';
import { Socket } from 'node:net';
import { DatabaseUnavailableError } from '../../apps/api/src/common/errors';
import { isDatabaseUnavailable } from '../../apps/api/src/common/errors/database-unavailability';
import { checkStatement } from '../../apps/api/src/database/sql-statement';
import { type Round } from '../../apps/api/src/database/unit-of-work';
import { openProbeDatabase } from './support/probe-database';

/** Database.check: checks that come together share one connection and one write (CheckLane). */
describe('Database.check', () => {
  const TIMEOUT_MS = 600;
  // Checks keep to their account's share of the pool (half of it) like any statement: here every
  // call is one and the same caller's, whose eight checks at once fit a pool of sixteen.
  const probe = openProbeDatabase('check_lane_probe', TIMEOUT_MS, 16);
  const { table, db, pool } = probe;
  const BACKEND = checkStatement<object, { pid: number }>(
    `${table}.backend`,
    'SELECT pg_backend_pid() AS pid',
  );
  const NUMBER = checkStatement<{ text: string }, { n: number }>(
    `${table}.number`,
    'SELECT $text::int AS n',
  );
  const SLEEP = checkStatement<{ seconds: number }, { slept: string }>(
    `${table}.sleep`,
    'SELECT pg_sleep($seconds)::text AS slept',
  );
  const NO_SERVER_TIMEOUT = checkStatement<object, { timeout: string }>(
    `${table}.no-server-timeout`,
    `SELECT set_config('statement_timeout', '0', false) AS timeout`,
  );
  const DIE = checkStatement(`${table}.die`, 'SELECT pg_terminate_backend(pg_backend_pid())');
  const backend = async () => (await db.check(BACKEND, {}))?.pid;

  beforeAll(() => {
    // The connection torn down by a deadline warns; keep the test output quiet.
    Logger.overrideLogger(false);
  });
  afterAll(() => probe.close());

  it('sends the checks of one turn in one write, on one connection, and gives it back', async () => {
    // A connection to take at once: opening one writes its start-up messages.
    await backend();
    const idle = pool.idleCount;
    // Writes to sockets while the checks run: nothing else in this process sends meanwhile.
    const spies = [
      jest.spyOn(Socket.prototype as unknown as { _write: () => void }, '_write'),
      jest.spyOn(Socket.prototype as unknown as { _writev: () => void }, '_writev'),
    ];
    let pids: (number | undefined)[];
    let writes: number;
    try {
      pids = await Promise.all(Array.from({ length: 8 }, backend));
    } finally {
      writes = spies.reduce((sum, spy) => sum + spy.mock.calls.length, 0);
      for (const spy of spies) spy.mockRestore();
    }
    expect(writes).toBe(1);
    expect(new Set(pids)).toEqual(new Set([pids[0]]));
    expect(pids[0]).toEqual(expect.any(Number));
    expect(pool.idleCount).toBe(idle);
  });

  it('fails a check that fails alone: the others and the connection go on', async () => {
    const first = await backend();
    const outcomes = await Promise.allSettled([
      db.check(NUMBER, { text: '1' }),
      db.check(NUMBER, { text: 'one' }),
      db.check(NUMBER, { text: '3' }),
    ]);
    expect(outcomes[0]).toEqual({ status: 'fulfilled', value: { n: 1 } });
    expect(outcomes[1]).toMatchObject({ status: 'rejected', reason: { code: '22P02' } });
    expect(outcomes[2]).toEqual({ status: 'fulfilled', value: { n: 3 } });
    expect(await backend()).toBe(first);
  });

  it('answers 503 for a check that outlives its deadline, and drops that connection', async () => {
    // The server's own statement timeout off for the shared connection (a session setting, sent
    // in the same turn, so on the same connection): only the service's deadline can cut the
    // sleep short, as with a server that stopped answering.
    const [first, , failure] = await Promise.all([
      backend(),
      db.check(NO_SERVER_TIMEOUT, {}),
      db.check(SLEEP, { seconds: 5 }).catch((error: unknown) => error),
    ]);
    expect(failure).toBeInstanceOf(DatabaseUnavailableError);
    // The checks after it get another connection (its session setting gone with it), which works.
    const next = await backend();
    expect(next).toEqual(expect.any(Number));
    expect(next).not.toBe(first);
  });

  it('drops a connection that broke under a check, and the next checks get a working one', async () => {
    const first = await backend();
    const failure = await db.check(DIE, {}).catch((error: unknown) => error);
    expect(isDatabaseUnavailable(failure)).toBe(true);
    for (let i = 0; i < 3; i++) {
      const next = await backend();
      expect(next).toEqual(expect.any(Number));
      expect(next).not.toBe(first);
    }
  });

  it('takes turns with transactions in a pool of one connection', async () => {
    const single = openProbeDatabase('check_lane_single', TIMEOUT_MS, 1);
    try {
      const ping = (round: Round) => {
        const found = round.row(BACKEND, {});
        return round.finish(() => found.get()?.pid);
      };
      const outcomes = await Promise.all([
        single.db.check(BACKEND, {}),
        single.db.transaction(ping),
        single.db.check(BACKEND, {}),
        single.db.transaction(ping),
      ]);
      const pids = outcomes.map((outcome) =>
        typeof outcome === 'number' ? outcome : outcome?.pid,
      );
      // One connection served them all, in turn.
      expect(new Set(pids).size).toBe(1);
      expect(pids[0]).toEqual(expect.any(Number));
    } finally {
      await single.close();
    }
  });
});
