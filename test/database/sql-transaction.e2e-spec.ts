import { randomBytes } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { loadConfig } from '../../apps/api/src/config/load-config';
import { isDatabaseUnavailable } from '../../apps/api/src/database/database-errors';
import { type DatabaseServer } from '../../apps/api/src/database/database-server';
import { PrismaService } from '../../apps/api/src/database/prisma.service';
import { Prisma } from '../../apps/api/src/generated/prisma/client';

/** PrismaService's plain SQL transactions, on the run's real database. */
describe('PrismaService.sqlTransaction', () => {
  const url = process.env.LAYOUT_TEST_DATABASE_URL ?? '';
  const table = Prisma.raw(`sql_tx_probe_${randomBytes(4).toString('hex')}`);
  let prisma: PrismaService;

  const stored = async () =>
    (await prisma.rows<{ n: number }>(Prisma.sql`SELECT n FROM ${table} ORDER BY n`)).map(
      (row) => row.n,
    );

  beforeAll(async () => {
    // The killed connection's warning is expected here; keep the test output quiet.
    Logger.overrideLogger(false);
    const config = loadConfig({ DATABASE_URL: url, DATABASE_POOL_SIZE: '2' });
    prisma = new PrismaService({ url } as DatabaseServer, config);
    await prisma.rows(Prisma.sql`CREATE TABLE ${table} (n int PRIMARY KEY)`);
  });
  afterAll(async () => {
    await prisma.rows(Prisma.sql`DROP TABLE IF EXISTS ${table}`);
    await prisma.onModuleDestroy();
  });

  it('commits what the work did and answers its result', async () => {
    const result = await prisma.sqlTransaction(async (sql) => {
      await sql.rows(Prisma.sql`INSERT INTO ${table} VALUES (1), (2)`);
      return (
        await sql.rows<{ count: number }>(Prisma.sql`SELECT count(*)::int AS count FROM ${table}`)
      )[0].count;
    });
    expect(result).toBe(2);
    expect(await stored()).toEqual([1, 2]);
  });

  it('rolls everything back when the work throws, and rethrows', async () => {
    class Refused extends Error {}
    await expect(
      prisma.sqlTransaction(async (sql) => {
        await sql.rows(Prisma.sql`INSERT INTO ${table} VALUES (3)`);
        throw new Refused('no');
      }),
    ).rejects.toBeInstanceOf(Refused);
    expect(await stored()).toEqual([1, 2]);
  });

  it('rolls back a failed statement, leaving the connection usable', async () => {
    await expect(
      prisma.sqlTransaction((sql) => sql.rows(Prisma.sql`INSERT INTO ${table} VALUES (4), (1)`)),
    ).rejects.toMatchObject({ code: '23505' });
    // Both pooled connections work afterwards (no transaction left open on either).
    await Promise.all(
      [1, 2].map(() => prisma.sqlTransaction((sql) => sql.rows(Prisma.sql`SELECT 1`))),
    );
    expect(await stored()).toEqual([1, 2]);
  });

  it('drops a connection that broke mid-transaction instead of reusing it', async () => {
    const failure = await prisma
      .sqlTransaction(async (sql) => {
        await sql.rows(Prisma.sql`INSERT INTO ${table} VALUES (5)`);
        await sql.rows(Prisma.sql`SELECT pg_terminate_backend(pg_backend_pid())`);
      })
      .catch((error: unknown) => error);
    expect(isDatabaseUnavailable(failure)).toBe(true);
    // Every later transaction gets a working connection, and nothing of the broken one stayed.
    for (let i = 0; i < 4; i++) {
      await prisma.sqlTransaction((sql) => sql.rows(Prisma.sql`SELECT 1`));
    }
    expect(await stored()).toEqual([1, 2]);
  });
});
