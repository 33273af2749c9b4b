import { openProbeDatabase } from './support/probe-database';

/**
 * The pool's connections plan each named statement once, generically: planning a tree
 * statement anew at every call cost more than running it (bench/results/changes.md).
 */
describe('the database pool’s plans', () => {
  // One connection, so that the statement and the catalogue read meet on the same session.
  const probe = openProbeDatabase('plans_probe', 5000, 1);
  const { table, db, pool, statement } = probe;
  const CREATE = statement('create', `CREATE TABLE ${table} (n int PRIMARY KEY, skewed int)`);
  const FILL = statement(
    'fill',
    `INSERT INTO ${table} SELECT g, CASE WHEN g <= 9990 THEN 1 ELSE g END
       FROM generate_series(1, 10000) g`,
  );
  // A value whose selectivity differs wildly: left to choose, PostgreSQL custom-plans it.
  const BY_SKEWED = statement<{ skewed: number }, { count: number }>(
    'by_skewed',
    `SELECT count(*)::int AS count FROM ${table} WHERE skewed = $skewed`,
  );

  beforeAll(async () => {
    await db.rows(CREATE, {});
    await db.rows(FILL, {});
    await pool.query(`CREATE INDEX ON ${table} (skewed); ANALYZE ${table}`);
  });
  afterAll(() => probe.close());

  it('runs on force_generic_plan', async () => {
    const { rows } = await pool.query<{ plan_cache_mode: string }>('SHOW plan_cache_mode');
    expect(rows[0].plan_cache_mode).toBe('force_generic_plan');
  });

  it('compiles no plan: JIT would compile a costly plan again at every execution', async () => {
    const { rows } = await pool.query<{ jit: string }>('SHOW jit');
    expect(rows[0].jit).toBe('off');
  });

  it('plans no incremental sort, which reads a whole project before a latest version', async () => {
    const { rows } = await pool.query<{ enable_incremental_sort: string }>(
      'SHOW enable_incremental_sort',
    );
    expect(rows[0].enable_incremental_sort).toBe('off');
  });

  it('runs a named statement on its generic plan from the first call, whatever its values', async () => {
    const counts: number[] = [];
    for (const skewed of [1, 9995, 1, 9999, 1, 9991, 1]) {
      counts.push((await db.rows(BY_SKEWED, { skewed }))[0].count);
    }
    expect(counts).toEqual([9990, 1, 9990, 1, 9990, 1, 9990]);
    const { rows } = await pool.query<{ generic: string; custom: string }>(
      `SELECT generic_plans::text AS generic, custom_plans::text AS custom
         FROM pg_prepared_statements WHERE name = $1`,
      [BY_SKEWED.name],
    );
    expect(rows).toEqual([{ generic: '7', custom: '0' }]);
  });
});
