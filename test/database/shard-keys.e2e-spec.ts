import { Client } from 'pg';
import { testDatabaseUrl } from '../resilience/support/databases';
import {
  insertAccount,
  insertBlock,
  insertProject,
  insertRow,
  uniqueUsername,
} from './support/tree-rows';

/**
 * Toward Citus, sharded by project (docs/decisions.md, "Toward Citus"): a distributed table's primary
 * key, its unique constraints and its foreign keys to another distributed table must include the
 * distribution column. Read off the migrated schema, so that a new table or key cannot forget it.
 */
describe('the schema’s keys, sharded by project', () => {
  /** Tables with a `project_id` that are not sharded by it, and why. */
  const NOT_BY_PROJECT: Record<string, string> = {
    // A ticket is looked up by its hash alone, before its project is known.
    event_tickets: 'keyed by the ticket',
    // A stream's lease is counted per account (10 each), behind the account's lock.
    event_streams: 'counted by account',
  };
  let client: Client;

  beforeAll(async () => {
    client = new Client({ connectionString: testDatabaseUrl() });
    await client.connect();
  });
  afterAll(() => client?.end());

  /** The tables sharded by project, with the column that holds it. */
  async function shardedTables(): Promise<Map<string, string>> {
    const { rows } = await client.query<{ table: string }>(
      `SELECT c.relname AS table FROM pg_attribute a
         JOIN pg_class c ON c.oid = a.attrelid AND c.relkind = 'r'
         JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()
       WHERE a.attname = 'project_id' AND NOT a.attisdropped`,
    );
    const tables = new Map([['projects', 'id']]);
    for (const { table } of rows) if (!(table in NOT_BY_PROJECT)) tables.set(table, 'project_id');
    return tables;
  }

  /** The columns of a constraint's `key` (conkey, confkey) of `relation`, in the key's order. */
  const keyColumns = (key: string, relation: string) =>
    `array(SELECT a.attname::text FROM unnest(k.${key}) WITH ORDINALITY x(n, i)
       JOIN pg_attribute a ON a.attrelid = k.${relation} AND a.attnum = x.n ORDER BY x.i)`;

  /** The foreign keys of `tables`, with what they reference and their ON UPDATE, ON DELETE. */
  async function foreignKeysOf(tables: string[]) {
    const { rows } = await client.query<{
      table: string;
      name: string;
      columns: string[];
      referenced: string;
      referencedColumns: string[];
      onUpdate: string;
      onDelete: string;
    }>(
      `SELECT t.relname AS table, k.conname AS name, r.relname AS referenced,
         ${keyColumns('conkey', 'conrelid')} AS columns,
         ${keyColumns('confkey', 'confrelid')} AS "referencedColumns",
         k.confupdtype AS "onUpdate", k.confdeltype AS "onDelete"
       FROM pg_constraint k JOIN pg_class t ON t.oid = k.conrelid
         JOIN pg_class r ON r.oid = k.confrelid
       WHERE k.contype = 'f' AND t.relname = ANY ($1)`,
      [tables],
    );
    return rows;
  }

  it('finds the tree’s tables among them', async () => {
    const tables = [...(await shardedTables()).keys()].sort();
    expect(tables).toEqual(
      expect.arrayContaining(['blocks', 'columns', 'contents', 'node_versions', 'projects']),
    );
    expect(tables).toEqual(expect.arrayContaining(['revisions', 'rows']));
  });

  it('includes the project in every primary key and unique constraint of those tables', async () => {
    const sharded = await shardedTables();
    const { rows } = await client.query<{ table: string; name: string; columns: string[] }>(
      `SELECT t.relname AS table, k.conname AS name, ${keyColumns('conkey', 'conrelid')} AS columns
       FROM pg_constraint k JOIN pg_class t ON t.oid = k.conrelid
       WHERE k.contype IN ('p', 'u') AND t.relname = ANY ($1)`,
      [[...sharded.keys()]],
    );
    expect(rows.length).toBeGreaterThanOrEqual(sharded.size);
    const missing = rows.filter((k) => !k.columns.includes(sharded.get(k.table)!));
    expect(missing).toEqual([]);
  });

  it('references a row of another sharded table by the project too', async () => {
    const sharded = await shardedTables();
    const rows = (await foreignKeysOf([...sharded.keys()])).filter((k) =>
      sharded.has(k.referenced),
    );
    // The node tables' parents, at least: rows → blocks, columns → rows, contents → columns.
    expect(rows.map((k) => `${k.table}→${k.referenced}`)).toEqual(
      expect.arrayContaining(['rows→blocks', 'columns→rows', 'contents→columns']),
    );
    const unsharded = rows.filter((k) => {
      const at = k.columns.indexOf(sharded.get(k.table)!);
      return at < 0 || k.referencedColumns[at] !== sharded.get(k.referenced);
    });
    expect(unsharded).toEqual([]);
  });

  it('lets no foreign key that holds the project change or clear it (Citus refuses those)', async () => {
    const sharded = await shardedTables();
    const rows = await foreignKeysOf([...sharded.keys()]);
    const holding = rows.filter((k) => k.columns.includes(sharded.get(k.table)!));
    expect(holding.map((k) => k.name)).toEqual(
      expect.arrayContaining(['contents_project_id_column_id_fkey', 'revisions_project_id_fkey']),
    );
    // ON UPDATE: only NO ACTION (a) or RESTRICT (r); ON DELETE: neither SET NULL nor SET DEFAULT.
    const refused = holding.filter(
      (k) => !['a', 'r'].includes(k.onUpdate) || ['n', 'd'].includes(k.onDelete),
    );
    expect(refused).toEqual([]);
  });

  it('refuses a node whose parent lies in another project', async () => {
    await client.query('BEGIN');
    try {
      const account = await insertAccount(client, uniqueUsername('shard-keys'));
      const mine = await insertProject(client, account);
      const theirs = await insertProject(client, account);
      const block = await insertBlock(client, theirs);
      await client.query('SAVEPOINT across');
      await insertRow(client, mine, block);
      // The key is checked at commit (tree-keys-at-commit.e2e-spec.ts); this asks for it now.
      await expect(client.query('SET CONSTRAINTS ALL IMMEDIATE')).rejects.toMatchObject({
        code: '23503',
        constraint: 'rows_project_id_block_id_fkey',
      });
      await client.query('ROLLBACK TO SAVEPOINT across');
      // Under its own project, the same block takes the row.
      await insertRow(client, theirs, block);
      const { rowCount } = await client.query('SELECT 1 FROM rows WHERE project_id = $1', [theirs]);
      expect(rowCount).toBe(1);
    } finally {
      await client.query('ROLLBACK');
    }
  });
});
