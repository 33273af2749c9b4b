import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { treeWriteStatement } from '../../apps/api/src/layout/repositories/sql/changes.sql';
import { Api, startTestApp } from '../support/test-app';
import { buildTree, idOf } from '../support/tree-builder';

/**
 * Every tree write records its revision and, every 16th revision, prunes the history past what
 * is kept (RECORD_REVISION). On the other fifteen, the pruning must read nothing: a write that
 * scanned the project's whole history to delete none of it got slower with every revision kept.
 * On a 16th, it deletes only what fell out of the kept window since the 16th before: a range
 * that began at the project's first revision walked everything pruned before, until a vacuum.
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
    /** The project's revisions left, in order. */
    revisions: number[];
    /** The revisions that closed the project's versions left (null: still open), in order. */
    closedAt: (number | null)[];
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
      const left = await db.query<{ revisions: number[]; closedAt: (number | null)[] }>(
        `SELECT ARRAY(SELECT revision FROM revisions WHERE project_id = $1 ORDER BY revision)
             AS revisions,
           ARRAY(SELECT to_revision FROM node_versions WHERE project_id = $1
             ORDER BY to_revision NULLS LAST) AS "closedAt"`,
        [projectId],
      );
      const { revisions, closedAt } = left.rows[0];
      return {
        ...work.rows[0],
        versionsLeft: closedAt.length,
        revisionsLeft: revisions.length,
        revisions,
        closedAt,
      };
    } finally {
      await db.query('ROLLBACK').catch(() => undefined);
      await db.end();
    }
  }

  /**
   * A project with history: every content replaced twice, so that versions were closed, and
   * some 16th revision's window lies wholly inside it.
   */
  async function projectWithHistory() {
    const t = await buildTree(api, token, { blocks: 1, rows: 2, columns: [6, 6], contents: 3 });
    for (const html of ['<p>again</p>', '<p>once more</p>']) {
      for (const content of t.contents.flat(3)) {
        const replaced = await api.put(content, { type: 'text', data: { html } }, { token });
        expect(replaced.status).toBe(200);
      }
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

  it('prunes on a 16th revision what fell out of the kept window since the 16th before', async () => {
    const { projectId, content, revision } = await projectWithHistory();
    // A 16th whose window, (sixteenth - 18, sixteenth - 2] when 2 are kept, lies inside the
    // project's history: what is older was the 16th before's to delete, what is newer is kept.
    const sixteenth = Math.floor((revision + 2) / 16) * 16;
    expect(sixteenth - 18).toBeGreaterThan(0);
    const quiet = await touch(projectId, content, sixteenth + 1);
    const pruning = await touch(projectId, content, sixteenth);
    const outside = (r: number) =>
      r <= sixteenth - 18 || (r > sixteenth - 2 && r !== sixteenth + 1);
    // The touch records its revision (or meets the one already there).
    const expected = new Set([...quiet.revisions.filter(outside), sixteenth]);
    expect(quiet.revisions.filter((r) => !outside(r)).length).toBeGreaterThan(10);
    expect(pruning.revisions).toEqual([...expected].sort((a, b) => a - b));
    expect(pruning.revisions.some((r) => r <= sixteenth - 18)).toBe(true);
    // Versions go with the revision after the one that ended them: (sixteenth - 17, sixteenth - 1].
    const closedInWindow = (r: number | null) =>
      r !== null && r > sixteenth - 17 && r <= sixteenth - 1;
    expect(quiet.closedAt.some(closedInWindow)).toBe(true);
    expect(pruning.closedAt.some(closedInWindow)).toBe(false);
    expect(pruning.closedAt.filter((r) => r !== null && r <= sixteenth - 17)).toEqual(
      quiet.closedAt.filter((r) => r !== null && r <= sixteenth - 17),
    );
    expect(pruning.versionScans).toBeGreaterThan(0);
  });

  it('prunes everything past what is kept on a 1024th revision', async () => {
    const { projectId, content, revision } = await projectWithHistory();
    // After HISTORY_REVISIONS shrank, the windows leave older revisions behind: the 1024th
    // deletes them, as every revision past the kept ones.
    const at = (Math.floor(revision / 1024) + 1) * 1024;
    const quiet = await touch(projectId, content, at + 1);
    const pruning = await touch(projectId, content, at);
    expect(quiet.revisionsLeft).toBeGreaterThan(10);
    expect(pruning.revisions).toEqual([at]);
    expect(pruning.closedAt.every((r) => r === null || r > at - 1)).toBe(true);
    expect(pruning.versionsLeft).toBeLessThan(quiet.versionsLeft);
  });
});
