import { AsyncLocalStorage } from 'node:async_hooks';
import { Logger } from '@nestjs/common';
import {
  DatabaseUnavailableError,
  WriteOutcomeUnknownError,
} from '../../apps/api/src/common/errors';
import { isDatabaseUnavailable } from '../../apps/api/src/common/errors/database-unavailability';
import { type Work } from '../../apps/api/src/database/unit-of-work';
import {
  DIE,
  NO_SERVER_TIMEOUT,
  openProbeDatabase,
  slowCommitWhen,
} from './support/probe-database';
import { eventually } from '../support/eventually';

/**
 * Database.transaction with a group key, on a real database: the writes of one key that meet
 * share one transaction (a group commit), pipelined, each in its own savepoint, with the
 * outcome of running them one after another.
 */
describe('Database.transaction in a group', () => {
  const TIMEOUT_MS = 600;
  const probe = openProbeDatabase('grouped_tx_probe', TIMEOUT_MS);
  const { table, db, statement } = probe;
  const CREATE = statement('create', `CREATE TABLE ${table} (k text PRIMARY KEY, n int NOT NULL)`);
  const RESET = statement<{ k: string }>('reset', `INSERT INTO ${table} VALUES ($k, 0)`);
  // One unit: bumps its key's counter and says what it made of it, in which transaction.
  const BUMP = statement<{ k: string }, { n: number; tx: string }>(
    'bump',
    `UPDATE ${table} SET n = n + 1 WHERE k = $k RETURNING n, txid_current()::text AS tx`,
  );
  const READ = statement<{ k: string }, { n: number }>(
    'read',
    `SELECT n FROM ${table} WHERE k = $k`,
  );
  const WRITE = statement<{ k: string; n: number }, { n: number }>(
    'write',
    `UPDATE ${table} SET n = $n::int WHERE k = $k RETURNING n`,
  );
  // A second row of the same key: the primary key refuses it.
  const DUPLICATE = statement<{ k: string }>('duplicate', `INSERT INTO ${table} VALUES ($k, 0)`);
  let keys = 0;

  /** A fresh key, its counter at 0. */
  const freshKey = async () => {
    const k = `key-${(keys += 1)}`;
    await db.rows(RESET, { k });
    return k;
  };
  const counter = async (k: string) => (await db.row(READ, { k }))?.n;
  /** A unit that bumps `k`'s counter and answers the row, after `more` (its rules). */
  const bump =
    (
      k: string,
      more: (row: { n: number; tx: string }) => void = () => undefined,
    ): Work<{ n: number; tx: string }> =>
    (round) => {
      const bumped = round.row(BUMP, { k });
      return round.finish(() => {
        const row = bumped.get()!;
        more(row);
        return row;
      });
    };
  const bumpN =
    (k: string): Work<number> =>
    (round) => {
      const bumped = round.row(BUMP, { k });
      return round.finish(() => bumped.get()!.n);
    };
  const settle = (promises: Promise<unknown>[]) => Promise.allSettled(promises);

  beforeAll(async () => {
    Logger.overrideLogger(false);
    await db.rows(CREATE, {});
    // COMMIT itself is slow once a counter reaches 1000.
    await slowCommitWhen(probe, 'UPDATE', 'NEW.n = 1000');
  });
  afterAll(() => probe.close(`DROP FUNCTION IF EXISTS ${table}_slow()`));

  it('runs the units that meet in one transaction, in the order they came, each seeing the ones before', async () => {
    const k = await freshKey();
    const answers = await Promise.all(Array.from({ length: 10 }, () => db.transaction(bump(k), k)));
    expect(answers.map((answer) => answer.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(new Set(answers.map((answer) => answer.tx)).size).toBe(1);
    expect(await counter(k)).toBe(10);
  });

  it('keeps the units of different keys, and units without a key, in transactions of their own', async () => {
    const [a, b] = [await freshKey(), await freshKey()];
    const answers = await Promise.all([
      db.transaction(bump(a), a),
      db.transaction(bump(b), b),
      db.transaction(bump(a)),
    ]);
    expect(new Set(answers.map((answer) => answer.tx)).size).toBe(3);
    expect([await counter(a), await counter(b)]).toEqual([2, 1]);
  });

  it('rolls back alone a unit that throws, and answers it its error', async () => {
    const k = await freshKey();
    const refusal = new Error('a rule of the third unit');
    const outcomes = await settle(
      Array.from({ length: 5 }, (_, i) =>
        db.transaction((round) => {
          const bumped = round.row(BUMP, { k });
          return round.finish(() => {
            if (i === 2) throw refusal;
            return bumped.get()!.n;
          });
        }, k),
      ),
    );
    expect(outcomes).toEqual([
      { status: 'fulfilled', value: 1 },
      { status: 'fulfilled', value: 2 },
      { status: 'rejected', reason: refusal },
      { status: 'fulfilled', value: 3 },
      { status: 'fulfilled', value: 4 },
    ]);
    expect(await counter(k)).toBe(4);
  });

  it('rolls back alone a unit whose statement fails, and starts the ones behind it again', async () => {
    const k = await freshKey();
    const starts = [0, 0, 0, 0];
    const outcomes = await settle(
      starts.map((_, i) =>
        db.transaction((round) => {
          starts[i] += 1;
          if (i === 1) round.rows(DUPLICATE, { k });
          return bumpN(k)(round);
        }, k),
      ),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    expect(outcomes[1]).toMatchObject({ reason: { code: '23505' } });
    expect(outcomes.filter((o) => o.status === 'fulfilled').map((o) => o.value)).toEqual([1, 2, 3]);
    // The units behind the failed one had started on the same connection before its error
    // came back (pipelined), and ran again once it was rolled back.
    expect(starts).toEqual([1, 1, 2, 2]);
    expect(await counter(k)).toBe(3);
  });

  it('after a refusal, starts the units behind it one at a time until one stands', async () => {
    // A full project: every write is refused. Pipelined again behind each refusal, the units
    // would start once more for every refusal before them; one at a time, at most twice.
    const k = await freshKey();
    const starts = Array.from({ length: 8 }, () => 0);
    const outcomes = await settle(
      starts.map((_, i) =>
        db.transaction((round) => {
          starts[i] += 1;
          return bump(k, () => {
            throw new Error(`refused ${i}`);
          })(round);
        }, k),
      ),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual(starts.map(() => 'rejected'));
    // The first unit's refusal discards the seven pipelined behind it; each then runs alone.
    expect(starts).toEqual([1, 2, 2, 2, 2, 2, 2, 2]);
    expect(await counter(k)).toBe(0);
    // Once a unit stands, the ones behind it are pipelined again, in one transaction.
    const answers = await Promise.all(Array.from({ length: 4 }, () => db.transaction(bump(k), k)));
    expect(answers.map((answer) => answer.n)).toEqual([1, 2, 3, 4]);
  });

  it('starts again, in a new transaction, the units behind a first unit that throws', async () => {
    const k = await freshKey();
    const outcomes = await settle(
      Array.from({ length: 4 }, (_, i) =>
        db.transaction((round) => {
          const bumped = round.row(BUMP, { k });
          return round.finish(() => {
            if (i === 0) throw new Error('the first unit refuses');
            return bumped.get()!.n;
          });
        }, k),
      ),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    expect(outcomes.slice(1).map((o) => (o as PromiseFulfilledResult<number>).value)).toEqual([
      1, 2, 3,
    ]);
    expect(await counter(k)).toBe(3);
  });

  it('runs the units behind one that reads, then writes what it read, after it: no lost update', async () => {
    const k = await freshKey();
    // Read, then write what was read plus one: a second round, which must see nothing of the
    // units behind it, and which they must see.
    const readThenWrite: Work<number> = (round) => {
      const read = round.row(READ, { k });
      return round.next((next) => {
        const written = next.row(WRITE, { k, n: read.get()!.n + 1 });
        return next.finish(() => written.get()!.n);
      });
    };
    for (let round = 0; round < 2; round++) {
      const before = (await counter(k))!;
      const answers = await Promise.all([
        db.transaction(readThenWrite, k),
        db.transaction(bumpN(k), k),
        db.transaction(readThenWrite, k),
        db.transaction(bumpN(k), k),
      ]);
      expect(answers).toEqual([1, 2, 3, 4].map((i) => before + i));
    }
    expect(await counter(k)).toBe(8);
  });

  it('runs each unit in the async context of its own caller', async () => {
    const k = await freshKey();
    const context = new AsyncLocalStorage<number>();
    const seen = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        // Read in the unit's continuation, which runs in whichever group's turn it joined.
        context.run(i, () =>
          db.transaction((round) => {
            round.rows(BUMP, { k });
            return round.finish(() => context.getStore());
          }, k),
        ),
      ),
    );
    expect(seen).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('takes at most 32 units into one transaction', async () => {
    const k = await freshKey();
    const answers = await Promise.all(Array.from({ length: 40 }, () => db.transaction(bump(k), k)));
    const perTransaction = new Map<string, number>();
    for (const { tx } of answers) perTransaction.set(tx, (perTransaction.get(tx) ?? 0) + 1);
    expect(Math.max(...perTransaction.values())).toBeLessThanOrEqual(32);
    expect(perTransaction.size).toBeGreaterThan(1);
    expect(await counter(k)).toBe(40);
  });

  it('fails every unit, and commits none, when the connection breaks midway', async () => {
    const k = await freshKey();
    const outcomes = await settle(
      Array.from({ length: 4 }, (_, i) =>
        db.transaction((round) => {
          if (i === 2) round.rows(DIE, {});
          return bumpN(k)(round);
        }, k),
      ),
    );
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected');
      expect(isDatabaseUnavailable((outcome as PromiseRejectedResult).reason)).toBe(true);
    }
    expect(await counter(k)).toBe(0);
    // The pool recovers: the broken connection was not put back.
    for (let i = 0; i < 4; i++) await db.transaction(bump(k), k);
    expect(await counter(k)).toBe(4);
  });

  it('tells the units that stood that the outcome is unknown when COMMIT does not answer in time, and the refused ones to try again', async () => {
    const k = await freshKey();
    await db.rows(WRITE, { k, n: 998 });
    const outcomes = await settle([
      db.transaction((round) => {
        round.rows(NO_SERVER_TIMEOUT, {});
        return bumpN(k)(round);
      }, k),
      db.transaction(
        bump(k, ({ n }) => {
          // 1000 is the slow one; this unit refuses it, and nothing of it stays.
          if (n === 1000) throw new Error('a rule');
        }),
        k,
      ),
      db.transaction(bumpN(k), k),
    ]);
    expect(outcomes[0]).toEqual({
      status: 'rejected',
      reason: expect.any(WriteOutcomeUnknownError),
    });
    expect(outcomes[1]).toEqual({
      status: 'rejected',
      reason: expect.any(DatabaseUnavailableError),
    });
    expect(outcomes[2]).toEqual({
      status: 'rejected',
      reason: expect.any(WriteOutcomeUnknownError),
    });
    // It commits, after the service stopped waiting: 999, then 1000 refused, then 1000.
    await eventually(async () => (await counter(k)) === 1000, 'the slow COMMIT to land');
  });
});
