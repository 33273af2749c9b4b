import * as fc from 'fast-check';
import { Agent } from 'node:http';
import { Client } from 'pg';
import { createFreshDatabase, query } from './support/databases';
import { describeOutcome, expectNone, JsonClient, type Outcome, send } from './support/http';
import { startService, stopAllServices } from './support/service-process';

const ROW_WIDTH = 12;
const ROWS = 3;
const CREATES_PER_ROW = 24;
// Sizes 1..3, the same every run.
const SIZES = fc.sample(fc.integer({ min: 1, max: 3 }), {
  seed: 20261122,
  numRuns: ROWS * CREATES_PER_ROW,
});

interface Create {
  row: number;
  size: number;
  instance: number;
  outcome: Outcome;
}

describe('two instances on one fresh database', () => {
  let database: { url: string; drop(): Promise<void> } | undefined;

  afterAll(async () => {
    await stopAllServices();
    await database?.drop();
  }, 60_000);

  it('migrate once at the same start, and keep every row within 12 under concurrent creates', async () => {
    database = await createFreshDatabase('layout_two_instances');
    const env = { DATABASE_URL: database.url, MIGRATE_ON_START: 'true', DATABASE_POOL_SIZE: '8' };
    // A starting gate, so that the two migrations really overlap: an uncommitted creation of
    // the migrations table makes whatever touches it wait. Once both instances wait on a lock,
    // the gate is rolled back (the database stays empty) and they race.
    const gate = await holdMigrationsTable(database.url);
    const starting = Promise.allSettled([startService(env), startService(env)]);
    try {
      await gate.untilWaiting(2);
    } finally {
      await gate.release();
    }
    const started = await starting;
    const failures = started.flatMap((result) =>
      result.status === 'rejected' ? [String(result.reason)] : [],
    );
    expectNone('Instances that did not start', failures);
    const instances = started.flatMap((result) =>
      result.status === 'fulfilled' ? [result.value] : [],
    );

    const migrations = await query<{ migration_name: string; n: string; unfinished: string }>(
      database.url,
      `SELECT migration_name, count(*) AS n, count(*) FILTER (WHERE finished_at IS NULL) AS unfinished
         FROM _prisma_migrations GROUP BY migration_name`,
    );
    expect(migrations.length).toBeGreaterThan(0);
    expect(migrations.filter((m) => m.n !== '1' || m.unfinished !== '0')).toEqual([]);

    const setup = new JsonClient(instances[0].port);
    const { token } = await setup.newAccount('instances');
    const rows: Awaited<ReturnType<JsonClient['newRow']>>[] = [];
    for (let i = 0; i < ROWS; i++) rows.push(await setup.newRow(token));

    // Every create at once, alternating between the instances, each on its own connection.
    const agents = instances.map(() => new Agent({ keepAlive: true, maxSockets: 64 }));
    let creates: Create[];
    try {
      creates = await Promise.all(
        SIZES.map(async (size, index) => {
          const row = index % ROWS;
          const instance = index % 2;
          const outcome = await send({
            port: instances[instance].port,
            method: 'POST',
            path: `${rows[row].rowPath}/columns`,
            headers: { authorization: `Bearer ${token}` },
            body: { size },
            agent: agents[instance],
            timeoutMs: 30_000,
          });
          return { row, size, instance, outcome };
        }),
      );
    } finally {
      for (const agent of agents) agent.destroy();
    }

    const show = ({ row, size, instance, outcome }: Create) =>
      `row ${row}, size ${size}, instance ${instance}: ${describeOutcome(outcome)}`;
    expectNone(
      'Answers other than 201 or 409 row-width-exceeded',
      creates
        .filter(
          ({ size, outcome }) =>
            outcome.kind !== 'answered' ||
            !(
              (outcome.status === 201 && outcome.body?.size === String(size)) ||
              (outcome.status === 409 &&
                outcome.body?.type === '/problems/row-width-exceeded' &&
                Number.isInteger(outcome.body?.availableSize))
            ),
        )
        .map(show),
    );

    for (let row = 0; row < ROWS; row++) {
      const mine = creates.filter((create) => create.row === row);
      const stored = await query<{ id: string; size: number; sort_key: string }>(
        database.url,
        'SELECT id::text, size, sort_key::text FROM columns WHERE row_id = $1 ORDER BY sort_key',
        [rows[row].rowId],
      );
      const used = stored.reduce((sum, column) => sum + column.size, 0);
      expect(used).toBeLessThanOrEqual(ROW_WIDTH);
      expect(new Set(stored.map((column) => column.sort_key)).size).toBe(stored.length);

      // Exactly the 201s are stored, each with its size.
      const created = mine.flatMap((create) =>
        create.outcome.kind === 'answered' && create.outcome.status === 201
          ? [{ id: create.outcome.body._id as string, size: create.size }]
          : [],
      );
      expect(new Map(stored.map((column) => [column.id, column.size]))).toEqual(
        new Map(created.map((column) => [column.id, column.size])),
      );

      // A refusal's availableSize is what was left when it was decided: less than its size
      // (or it would have fitted), no more than 12 minus what was acknowledged before it was
      // sent, and no less than what is left at the end (columns were only added).
      const refusals = mine.flatMap((create) =>
        create.outcome.kind === 'answered' && create.outcome.status === 409
          ? [{ create, available: create.outcome.body.availableSize as number }]
          : [],
      );
      expect(refusals.length).toBeGreaterThan(0);
      const wrong = refusals.filter(({ create, available }) => {
        const acknowledgedBefore = mine
          .filter(
            (other) =>
              other.outcome.kind === 'answered' &&
              other.outcome.status === 201 &&
              other.outcome.endedAt < create.outcome.startedAt,
          )
          .reduce((sum, other) => sum + other.size, 0);
        return (
          available >= create.size ||
          available > ROW_WIDTH - acknowledgedBefore ||
          available < ROW_WIDTH - used
        );
      });
      expectNone(
        `Wrong availableSize (row ${row}: ${used} of ${ROW_WIDTH} used at the end)`,
        wrong.map(({ create }) => show(create)),
      );
    }

    for (const instance of instances) {
      expect(await instance.stop()).toEqual({ code: 0, signal: null });
    }
  }, 120_000);
});

/**
 * Creates `_prisma_migrations` in a transaction left open. Until it ends, a migration runner's
 * CREATE TABLE IF NOT EXISTS (or its wait for the runner's own lock) blocks.
 */
async function holdMigrationsTable(url: string) {
  const client = new Client({ connectionString: url });
  await client.connect();
  await client.query('BEGIN');
  await client.query('CREATE TABLE "_prisma_migrations" (id VARCHAR(36) PRIMARY KEY)');
  const database = new URL(url).pathname.slice(1);
  return {
    /** Resolves once `count` other sessions on the database wait for a lock (bounded). */
    async untilWaiting(count: number, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        // From another session: pg_stat_activity stays frozen inside the open transaction.
        const rows = await query<{ waiting: number }>(
          url,
          `SELECT count(*)::int AS waiting FROM pg_stat_activity
            WHERE datname = $1 AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'`,
          [database],
        );
        if (rows[0].waiting >= count) return;
        if (Date.now() > deadline) {
          throw new Error(`${rows[0].waiting} of ${count} sessions waited for the migration lock`);
        }
        // Nothing announces a session starting to wait: look again shortly.
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async release() {
      await client.query('ROLLBACK').catch(() => undefined);
      await client.end();
    },
  };
}
