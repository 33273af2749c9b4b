import { type Client } from 'pg';
import { ident, requiredFillers, type TableColumn, tableColumns } from './table-columns';

/**
 * Other accounts' data for the service's growth runs, straight in SQL: a project seeded through
 * the API is cloned, set-based, until the contents table holds the target. Nothing here knows
 * the layout tables' columns: they are read from information_schema, and every column is copied
 * as it is, except `id` (a fresh gen_random_uuid()) and the parent ids, which point into the
 * clone. So revision counters, child counters, byte counts or sort keys the schema gains are
 * copied along, consistent with the copied subtree.
 *
 * Each batch clones up to BATCH projects in one transaction, with one INSERT … SELECT per table
 * through a mapping table (clone, old id) → new id. Ten clones share one new filler account
 * (as the yardstick's filler does); each filler account gets one live token if access_tokens
 * has the expected columns. Triggers are off during the copy when the role may do that
 * (session_replication_role = replica): the copy already carries whatever a trigger would
 * maintain.
 */
const LAYOUT = [
  { table: 'projects', parent: undefined },
  { table: 'blocks', parent: 'projects' },
  { table: 'rows', parent: 'blocks' },
  { table: 'columns', parent: 'rows' },
  { table: 'contents', parent: 'columns' },
] as const;
/** The parent-id columns, wherever a layout table has them (owner_id points to the account). */
const PARENT_IDS = ['owner_id', 'project_id', 'block_id', 'row_id', 'column_id'];
const PARENT_OF: Record<string, string> = {
  blocks: 'project_id',
  rows: 'block_id',
  columns: 'row_id',
  contents: 'column_id',
};
const BATCH = 1000;
const PROJECTS_PER_ACCOUNT = 10;

export interface ServiceGrowth {
  /** Contents in the service's database afterwards (at least the target). */
  contents: number;
  clones: number;
  inserts: { table: string; rows: number; seconds: number }[];
  insertSeconds: number;
  vacuumSeconds: number;
  notes: string[];
}

export async function growService(
  db: Client,
  sourceProject: string,
  target: number,
): Promise<ServiceGrowth> {
  const notes: string[] = [];
  const schema = await readSchema(db, notes);
  const { owner, perClone } = await prepareSource(db, sourceProject);
  const { rows: superuser } = await db.query<{ yes: boolean }>(
    'SELECT rolsuper AS yes FROM pg_roles WHERE rolname = current_user',
  );
  const replica = superuser[0]?.yes === true;
  if (!replica) notes.push('triggers stayed on during the copy (not a superuser)');

  const totals = new Map<string, { rows: number; seconds: number }>();
  const count = async () =>
    (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM contents')).rows[0].n;
  let contents = await count();
  let clones = 0;
  const started = performance.now();
  while (contents < target) {
    const k = Math.min(BATCH, Math.ceil((target - contents) / perClone));
    await cloneBatch(db, schema, { owner, k, replica }, totals);
    clones += k;
    contents = await count();
  }
  const insertSeconds = (performance.now() - started) / 1000;
  await db.query('DROP TABLE IF EXISTS bench_clone_source');
  const t0 = performance.now();
  await db.query('VACUUM (ANALYZE)');
  return {
    contents,
    clones,
    inserts: [...totals].map(([table, total]) => ({ table, ...total })),
    insertSeconds,
    vacuumSeconds: (performance.now() - t0) / 1000,
    notes,
  };
}

type Schema = Record<string, TableColumn[]>;

async function readSchema(db: Client, notes: string[]): Promise<Schema> {
  const schema: Schema = {};
  for (const table of ['accounts', 'access_tokens', ...LAYOUT.map((level) => level.table)]) {
    schema[table] = await tableColumns(db, table);
  }
  for (const table of ['accounts', ...LAYOUT.map((level) => level.table)]) {
    const id = schema[table].find((column) => column.name === 'id');
    if (id?.dataType !== 'uuid') {
      throw new Error(`growth: ${table}.id is missing or not a uuid; bench/growth.ts assumes it`);
    }
  }
  const names = (table: string) => schema[table].map((column) => column.name);
  const missing = ['username', 'username_key', 'password_hash'].filter(
    (name) => !names('accounts').includes(name),
  );
  if (missing.length > 0) throw new Error(`growth: accounts has no ${missing.join(', ')}`);
  if (
    !['token_hash', 'account_id', 'expires_at'].every((n) => names('access_tokens').includes(n))
  ) {
    delete schema.access_tokens;
    notes.push('no filler tokens (access_tokens lacks token_hash, account_id or expires_at)');
  }
  return schema;
}

/** The ids of the source project's subtree, per table, in a session temp table. */
async function prepareSource(db: Client, project: string) {
  await db.query('DROP TABLE IF EXISTS bench_clone_source');
  await db.query('CREATE TEMP TABLE bench_clone_source (tbl text NOT NULL, id uuid NOT NULL)');
  const { rows } = await db.query<{ owner_id: string }>(
    'SELECT owner_id FROM projects WHERE id = $1',
    [project],
  );
  if (rows.length === 0) throw new Error(`growth: project ${project} not found`);
  await db.query(`INSERT INTO bench_clone_source VALUES ('projects', $1)`, [project]);
  for (const { table, parent } of LAYOUT) {
    if (parent === undefined) continue;
    await db.query(
      `INSERT INTO bench_clone_source SELECT '${table}', t.id FROM ${ident(table)} t
       WHERE t.${ident(PARENT_OF[table])} IN (SELECT id FROM bench_clone_source WHERE tbl = '${parent}')`,
    );
  }
  await db.query('ANALYZE bench_clone_source');
  const { rows: counted } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM bench_clone_source WHERE tbl = 'contents'`,
  );
  if (counted[0].n === 0) throw new Error(`growth: project ${project} has no contents to clone`);
  return { owner: rows[0].owner_id, perClone: counted[0].n };
}

async function cloneBatch(
  db: Client,
  schema: Schema,
  batch: { owner: string; k: number; replica: boolean },
  totals: Map<string, { rows: number; seconds: number }>,
): Promise<void> {
  const timed = async (table: string, sql: string, params: unknown[] = []) => {
    const t0 = performance.now();
    const result = await db.query(sql, params);
    const total = totals.get(table) ?? { rows: 0, seconds: 0 };
    total.rows += result.rowCount ?? 0;
    total.seconds += (performance.now() - t0) / 1000;
    totals.set(table, total);
  };
  await db.query('BEGIN');
  try {
    if (batch.replica) await db.query('SET LOCAL session_replication_role = replica');
    await db.query(`CREATE TEMP TABLE bench_clone_map (clone int NOT NULL, old_id uuid NOT NULL,
      new_id uuid NOT NULL DEFAULT gen_random_uuid(), PRIMARY KEY (clone, old_id)) ON COMMIT DROP`);
    await db.query(`CREATE TEMP TABLE bench_clone_accounts (grp int PRIMARY KEY,
      id uuid NOT NULL DEFAULT gen_random_uuid()) ON COMMIT DROP`);
    await db.query('INSERT INTO bench_clone_accounts (grp) SELECT generate_series(0, $1 - 1)', [
      Math.ceil(batch.k / PROJECTS_PER_ACCOUNT),
    ]);
    await timed('accounts', insertNew(schema, 'accounts', fillerAccount));
    if (schema.access_tokens) {
      await timed('access_tokens', insertNew(schema, 'access_tokens', fillerToken(schema)));
    }
    await db.query(
      `INSERT INTO bench_clone_map (clone, old_id, new_id)
       SELECT c, $1, a.id FROM generate_series(0, $2 - 1) c
       JOIN bench_clone_accounts a ON a.grp = c / ${PROJECTS_PER_ACCOUNT}`,
      [batch.owner, batch.k],
    );
    for (const { table } of LAYOUT) {
      await db.query(
        `INSERT INTO bench_clone_map (clone, old_id)
         SELECT c, s.id FROM generate_series(0, $1 - 1) c CROSS JOIN bench_clone_source s
         WHERE s.tbl = '${table}'`,
        [batch.k],
      );
      await db.query('ANALYZE bench_clone_map');
      await timed(table, cloneSql(table, schema[table]));
    }
    await db.query('COMMIT');
  } catch (error) {
    await db.query('ROLLBACK');
    throw error;
  }
}

/** INSERT … SELECT of a table's source rows, once per clone: ids new, parent ids remapped. */
function cloneSql(table: string, columns: TableColumn[]): string {
  const insertable = columns.filter((column) => !column.generated);
  const joins: string[] = [];
  const values = insertable.map((column) => {
    if (column.name === 'id') return 'm.new_id';
    if (!PARENT_IDS.includes(column.name)) return `t.${ident(column.name)}`;
    const alias = `p_${column.name}`;
    joins.push(
      `LEFT JOIN bench_clone_map ${alias} ON ${alias}.clone = m.clone AND ${alias}.old_id = t.${ident(column.name)}`,
    );
    return `${alias}.new_id`;
  });
  return `INSERT INTO ${ident(table)} (${insertable.map((c) => ident(c.name)).join(', ')})
    SELECT ${values.join(', ')}
    FROM bench_clone_source s
    JOIN ${ident(table)} t ON t.id = s.id
    JOIN bench_clone_map m ON m.old_id = s.id
    ${joins.join('\n    ')}
    WHERE s.tbl = '${table}'`;
}

type Given = Record<string, string>;

/** INSERT of one row per new filler account (bench_clone_accounts a): given values plus fillers. */
function insertNew(schema: Schema, table: string, given: Given): string {
  const fillers = requiredFillers(table, schema[table], Object.keys(given));
  const all = [...Object.entries(given), ...fillers.map((f) => [f.name, f.value] as const)];
  return `INSERT INTO ${ident(table)} (${all.map(([name]) => ident(name)).join(', ')})
    SELECT ${all.map(([, value]) => value).join(', ')} FROM bench_clone_accounts a`;
}

const fillerAccount: Given = {
  id: 'a.id',
  username: `'filler-' || a.id`,
  username_key: `'filler-' || a.id`,
  password_hash: `'filler account: no password'`,
};

function fillerToken(schema: Schema): Given {
  const hash = schema.access_tokens.find((column) => column.name === 'token_hash');
  const digest = `sha256(('filler-' || a.id)::bytea)`;
  return {
    token_hash: hash?.dataType === 'bytea' ? digest : `encode(${digest}, 'hex')`,
    account_id: 'a.id',
    expires_at: `now() + interval '1 hour'`,
  };
}
