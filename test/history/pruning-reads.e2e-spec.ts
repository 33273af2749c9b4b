import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { treeWriteStatement } from '../../apps/api/src/layout/repositories/sql/changes.sql';
import { Api, startTestApp } from '../support/test-app';
import { buildTree, idOf } from '../support/tree-builder';

/**
 * Every tree write records its revision and, every 16th revision, prunes the history past what
 * is kept (RECORD_REVISION). On the other fifteen, the pruning must read nothing: a write that
 * scanned the project's whole history to delete none of it got slower with every revision kept.
 */
describe('the history’s pruning in a write', () => {
  let app: NestFastifyApplication;
  let api: Api;
  let token: string;

  beforeAll(async () => {
    app = await startTestApp();
    api = new Api(app);
    ({ token } = await api.newAccount('pruning'));
  });
  afterAll(() => app.close());

  /** A write that states one content as changed in place: it carries RECORD_REVISION. */
  const TOUCH = treeWriteStatement<{ projectId: string; contentId: string }, { touched: number }>(
    'test.touch-one-content',
    'content',
    {
      parents: 'one',
      with: '',
      changed: `SELECT x.id, x.column_id, x.column_id, 0::bigint, 0::bigint FROM contents x
      WHERE x.project_id = $projectId AND x.id = $contentId`,
      select: 'SELECT count(*)::int AS touched FROM touched_column',
    },
  );

  /** What TOUCH did to the history's tables, as PostgreSQL counts it for its transaction. */
  interface HistoryWork {
    /** Index and sequential scans of `node_versions`. */
    versionScans: number;
    /** Rows of `revisions` read by any scan (the revision's own insert reads none). */
    revisionsRead: number;
    versionsLeft: number;
    revisionsLeft: number;
  }

  /**
   * Runs TOUCH on its generic plan, as the pool runs it, at the write revision given (as the
   * lock sets it), keeping 2 revisions; then rolls back.
   */
  async function touch(
    projectId: string,
    contentId: string,
    revision: number,
  ): Promise<HistoryWork> {
    const db = new Client({ connectionString: process.env.LAYOUT_TEST_DATABASE_URL });
    await db.connect();
    try {
      await db.query('BEGIN');
      await db.query(`SET LOCAL plan_cache_mode = force_generic_plan`);
      await db.query(
        `SELECT set_config('layout.revision', $1, true),
           set_config('layout.write_time', clock_timestamp()::text, true),
           set_config('layout.history_revisions', '2', true)`,
        [String(revision)],
      );
      const values = TOUCH.parameters.map((name) => ({ projectId, contentId })[name]);
      const touched = await db.query<{ touched: number }>(TOUCH.text, values);
      expect(touched.rows[0].touched).toBe(1);
      const work = await db.query<{ versionScans: number; revisionsRead: number }>(
        `SELECT (SELECT coalesce(seq_scan, 0) + coalesce(idx_scan, 0) FROM pg_stat_xact_user_tables
             WHERE relid = 'node_versions'::regclass)::int AS "versionScans",
           (SELECT coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0)
             FROM pg_stat_xact_user_tables WHERE relid = 'revisions'::regclass)::int
             AS "revisionsRead"`,
      );
      const left = await db.query<{ versions: number; revisions: number }>(
        `SELECT (SELECT count(*)::int FROM node_versions WHERE project_id = $1) AS versions,
           (SELECT count(*)::int FROM revisions WHERE project_id = $1) AS revisions`,
        [projectId],
      );
      return {
        ...work.rows[0],
        versionsLeft: left.rows[0].versions,
        revisionsLeft: left.rows[0].revisions,
      };
    } finally {
      await db.query('ROLLBACK').catch(() => undefined);
      await db.end();
    }
  }

  /** A project with history: every content replaced once, so that versions were closed. */
  async function projectWithHistory() {
    const t = await buildTree(api, token, { blocks: 1, rows: 2, columns: [6, 6], contents: 3 });
    for (const content of t.contents.flat(3)) {
      const replaced = await api.put(
        content,
        { type: 'text', data: { html: '<p>again</p>' } },
        { token },
      );
      expect(replaced.status).toBe(200);
    }
    const { body } = await api.get(t.project, { token });
    const revision = (body as { revision: number }).revision;
    return { projectId: t.projectId, content: idOf(t.contents[0][0][0][0]), revision };
  }

  it('reads none of the history on a revision that prunes nothing', async () => {
    const { projectId, content, revision } = await projectWithHistory();
    const next = (revision + 1) % 16 === 0 ? revision + 2 : revision + 1;
    const quiet = await touch(projectId, content, next);
    expect(quiet.versionScans).toBe(0);
    expect(quiet.revisionsRead).toBe(0);
    // Past what is kept, all of it: it is there to prune, and stays until a 16th revision.
    expect(quiet.revisionsLeft).toBeGreaterThan(10);
  });

  it('prunes on a 16th revision, past what is kept', async () => {
    const { projectId, content, revision } = await projectWithHistory();
    const sixteenth = (Math.floor(revision / 16) + 2) * 16;
    const quiet = await touch(projectId, content, sixteenth + 1);
    const pruning = await touch(projectId, content, sixteenth);
    // The project's revisions all lie more than 2 behind the 16th: only the one written stays.
    expect(quiet.revisionsLeft).toBeGreaterThan(10);
    expect(pruning.revisionsLeft).toBe(1);
    expect(pruning.versionScans).toBeGreaterThan(0);
    expect(pruning.versionsLeft).toBeLessThan(quiet.versionsLeft);
  });
});
