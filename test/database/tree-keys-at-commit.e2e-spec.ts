import { randomUUID } from 'node:crypto';
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
 * The tree's foreign keys are checked at COMMIT (the migration `tree_keys_checked_at_commit`):
 * a project's writes that share a transaction update the same ancestors, and a check deferred
 * to COMMIT looks at each row once, in its last version, where an immediate one ran again after
 * every update. Deferred is not weaker: what breaks a key still fails its transaction.
 */
describe('the tree’s foreign keys, checked at commit', () => {
  /** The tables that a write of the tree updates: their keys are the ones checked again. */
  const TREE_TABLES = ['projects', 'blocks', 'rows', 'columns', 'contents'];
  let client: Client;

  beforeAll(async () => {
    client = new Client({ connectionString: testDatabaseUrl() });
    await client.connect();
  });
  afterAll(() => client?.end());

  it('defers every foreign key of the tables that a tree write updates', async () => {
    const { rows } = await client.query<{ name: string; deferred: boolean }>(
      `SELECT k.conname AS name, k.condeferrable AND k.condeferred AS deferred
       FROM pg_constraint k JOIN pg_class t ON t.oid = k.conrelid
       WHERE k.contype = 'f' AND t.relname = ANY ($1)
       ORDER BY 1`,
      [TREE_TABLES],
    );
    // Each node's parent (a block's parent is the project), and the project's owner.
    expect(rows.map((k) => k.name)).toEqual([
      'blocks_project_id_fkey',
      'columns_project_id_row_id_fkey',
      'contents_project_id_column_id_fkey',
      'projects_owner_id_fkey',
      'rows_project_id_block_id_fkey',
    ]);
    expect(rows.filter((k) => !k.deferred)).toEqual([]);
  });

  it('fails the transaction at COMMIT when a node’s parent is missing, and keeps none of it', async () => {
    const username = uniqueUsername('tree-keys');
    await client.query('BEGIN');
    let committed = false;
    try {
      const project = await insertProject(client, await insertAccount(client, username));
      // A block, updated again by a later statement of the same transaction (as the ancestors
      // of a group's writes are), and a row under a block that does not exist.
      const block = await insertBlock(client, project);
      await client.query(`UPDATE blocks SET child_count = 1 WHERE project_id = $1 AND id = $2`, [
        project,
        block,
      ]);
      await insertRow(client, project, randomUUID());
      committed = true;
      await expect(client.query('COMMIT')).rejects.toMatchObject({
        code: '23503',
        constraint: 'rows_project_id_block_id_fkey',
      });
    } finally {
      if (!committed) await client.query('ROLLBACK');
    }
    // Nothing of it was kept (and, were it kept, this removes it).
    const { rowCount } = await client.query('DELETE FROM accounts WHERE username = $1', [username]);
    expect(rowCount).toBe(0);
  });

  it('accepts the same transaction with the row under its block', async () => {
    await client.query('BEGIN');
    const account = await insertAccount(client, uniqueUsername('tree-keys'));
    const project = await insertProject(client, account);
    await insertRow(client, project, await insertBlock(client, project));
    await client.query('COMMIT');
    try {
      const { rowCount } = await client.query('SELECT 1 FROM rows WHERE project_id = $1', [
        project,
      ]);
      expect(rowCount).toBe(1);
    } finally {
      await client.query('DELETE FROM accounts WHERE id = $1', [account]);
    }
  });
});
