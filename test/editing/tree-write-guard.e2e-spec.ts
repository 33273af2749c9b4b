import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { treeWriteStatement } from '../../apps/api/src/layout/repositories/sql/changes.sql';
import { Api, startTestApp } from '../support/test-app';
import { buildTree, idOf } from '../support/tree-builder';

/**
 * A tree write declares whether its changes sit under one parent (the ancestors followed by
 * primary key, one row each) or several. One that declares one parent and changes nodes of two
 * would count under one what belongs to the other: it fails instead of writing.
 */
describe('a tree write of one parent', () => {
  let app: NestFastifyApplication;
  let api: Api;
  let token: string;

  beforeAll(async () => {
    app = await startTestApp();
    api = new Api(app);
    ({ token } = await api.newAccount('guard'));
  });
  afterAll(() => app.close());

  /** A statement that states every content of the columns asked as changed in place. */
  const TOUCH = treeWriteStatement<{ projectId: string; columnIds: string[] }, { columns: number }>(
    'test.touch-contents',
    'content',
    {
      parents: 'one',
      with: '',
      changed: `SELECT x.id, x.column_id, x.column_id, 0::bigint, 0::bigint FROM contents x
      WHERE x.project_id = $projectId AND x.column_id = ANY ($columnIds::uuid[])`,
      select: 'SELECT count(*)::int AS columns FROM touched_column',
    },
  );

  /** Runs TOUCH in a transaction that sets a write revision as the lock does, then rolls back. */
  async function touch(projectId: string, columnIds: string[]) {
    const db = new Client({ connectionString: process.env.LAYOUT_TEST_DATABASE_URL });
    await db.connect();
    try {
      await db.query('BEGIN');
      // What the project's lock sets for the write statements behind it.
      await db.query(
        `SELECT set_config('layout.revision', '1000', true),
           set_config('layout.write_time', clock_timestamp()::text, true)`,
      );
      const values = TOUCH.parameters.map((name) => ({ projectId, columnIds })[name]);
      const { rows } = await db.query<{ columns: number }>(TOUCH.text, values);
      return rows[0].columns;
    } finally {
      await db.query('ROLLBACK').catch(() => undefined);
      await db.end();
    }
  }

  it('follows the one parent its changes sit under', async () => {
    const t = await buildTree(api, token, { blocks: 1, rows: 1, columns: [6, 6], contents: 3 });
    await expect(touch(t.projectId, [idOf(t.columns[0][0][0])])).resolves.toBe(1);
  });

  it('fails, and writes nothing, when its changes sit under two parents', async () => {
    const t = await buildTree(api, token, { blocks: 1, rows: 1, columns: [6, 6], contents: 3 });
    const before = (await api.get(t.project, { token })).text;
    await expect(touch(t.projectId, t.columns[0][0].map(idOf))).rejects.toThrow(
      'a write of one parent changed 6 nodes under several',
    );
    expect((await api.get(t.project, { token })).text).toBe(before);
  });
});
