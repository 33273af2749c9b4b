import { randomBytes } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { type Pool } from 'pg';
import { loadConfig } from '../../apps/api/src/config/load-config';
import { Database } from '../../apps/api/src/database/database';
import { isDatabaseUnavailable } from '../../apps/api/src/database/database-errors';
import { createDatabasePool } from '../../apps/api/src/database/database-pool';
import { sqlStatement } from '../../apps/api/src/database/sql-statement';

/** Database.transaction, the one unit of work of the layout services, on a real database. */
describe('Database.transaction', () => {
  const url = process.env.LAYOUT_TEST_DATABASE_URL ?? '';
  const table = `sql_tx_probe_${randomBytes(4).toString('hex')}`;
  const statement = <P extends object, R = unknown>(name: string, sql: string) =>
    sqlStatement<P, R>(`${table}.${name}`, sql);
  const CREATE = statement('create', `CREATE TABLE ${table} (n int PRIMARY KEY)`);
  const DROP = statement('drop', `DROP TABLE IF EXISTS ${table}`);
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
  const DIE = statement('die', 'SELECT pg_terminate_backend(pg_backend_pid())');
  let pool: Pool;
  let db: Database;

  const stored = async () => (await db.rows(ALL, {})).map((row) => row.n);

  beforeAll(async () => {
    // The killed connection's warning is expected here; keep the test output quiet.
    Logger.overrideLogger(false);
    pool = createDatabasePool(
      url,
      loadConfig({ DATABASE_URL: url, DATABASE_POOL_SIZE: '2' }).database,
    );
    db = new Database(pool);
    await db.rows(CREATE, {});
  });
  afterAll(async () => {
    await db.rows(DROP, {});
    await pool.end();
  });

  it('commits what the work did and answers its result', async () => {
    const result = await db.transaction(async (tx) => {
      await tx.rows(INSERT, { first: 1, second: 2 });
      return (await tx.row(COUNT, {}))?.count;
    });
    expect(result).toBe(2);
    expect(await stored()).toEqual([1, 2]);
  });

  it('rolls everything back when the work throws, and rethrows', async () => {
    class Refused extends Error {}
    await expect(
      db.transaction(async (tx) => {
        await tx.rows(INSERT, { first: 3, second: 4 });
        throw new Refused('no');
      }),
    ).rejects.toBeInstanceOf(Refused);
    expect(await stored()).toEqual([1, 2]);
  });

  it('rolls back a failed statement, leaving the connection usable', async () => {
    await expect(
      db.transaction((tx) => tx.rows(INSERT, { first: 5, second: 1 })),
    ).rejects.toMatchObject({ code: '23505' });
    // Both pooled connections work afterwards (no transaction left open on either).
    await Promise.all([1, 2].map(() => db.transaction((tx) => tx.rows(PING, {}))));
    expect(await stored()).toEqual([1, 2]);
  });

  it('drops a connection that broke mid-transaction instead of reusing it', async () => {
    const failure = await db
      .transaction(async (tx) => {
        await tx.rows(INSERT, { first: 6, second: 7 });
        await tx.rows(DIE, {});
      })
      .catch((error: unknown) => error);
    expect(isDatabaseUnavailable(failure)).toBe(true);
    // Every later transaction gets a working connection, and nothing of the broken one stayed.
    for (let i = 0; i < 4; i++) await db.transaction((tx) => tx.rows(PING, {}));
    expect(await stored()).toEqual([1, 2]);
  });

  it('refuses a statement run without one of its parameters', async () => {
    await expect(db.rows(INSERT, { first: 8 } as never)).rejects.toThrow('no value for $second');
  });
});
