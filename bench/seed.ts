import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Client } from 'pg';
import { BLOCK_STYLE, mediaContentBody, textContentBody } from './fixtures';
import { expectCall, idOf } from './http';

/** The shape of every seeded project: 5 blocks × 3 rows × 3 columns (size 4) × 2 contents. */
export const SHAPE = { blocks: 5, rowsPerBlock: 3, columnsPerRow: 3, size: 4, contents: 2 };

export interface SeededColumn {
  path: string;
  contentPaths: string[];
}

export interface SeededRow {
  path: string;
  columns: SeededColumn[];
}

export interface SeededAccount {
  username: string;
  token: string;
  projectPath: string;
  rows: SeededRow[];
  columns: SeededColumn[];
  contentPaths: string[];
}

export interface Fixture {
  accounts: SeededAccount[];
  projectIds: string[];
  /** Every content the seed created: what a reset after a write scenario keeps. */
  contentIds: string[];
}

/**
 * Seeds through the service's API, the way an editor would: sign up, get a token, create the
 * project and then each block, row, column and content in order. Accounts run in parallel.
 */
export async function seedThroughApi(serviceUrl: string, accounts: number): Promise<Fixture> {
  const run = randomBytes(3).toString('hex');
  const seeded = await Promise.all(
    Array.from({ length: accounts }, (_, index) =>
      seedAccount(serviceUrl, `bench-${run}-${index}`),
    ),
  );
  return {
    accounts: seeded.map((account) => account.account),
    projectIds: seeded.map((account) => account.projectId),
    contentIds: seeded.flatMap((account) => account.contentIds),
  };
}

async function seedAccount(url: string, username: string) {
  const password = randomBytes(12).toString('base64url');
  await expectCall(201, url, 'POST', '/accounts', { body: { username, password } });
  const tokenReply = await expectCall(200, url, 'POST', '/accounts/auth/token', {
    body: { username, password },
  });
  const token = (tokenReply.body as { token: string }).token;
  const post = async (path: string, body: object) =>
    idOf(await expectCall(201, url, 'POST', path, { token, body }));

  const projectId = await post('/projects', { title: `Proposal for ${username}` });
  const projectPath = `/projects/${projectId}`;
  const rows: SeededRow[] = [];
  const contentIds: string[] = [];
  let n = 0;
  for (let b = 0; b < SHAPE.blocks; b++) {
    const blockPath = `${projectPath}/blocks/${await post(`${projectPath}/blocks`, {
      description: `Block ${b + 1}`,
      ...(b % 2 === 0 && { style: BLOCK_STYLE }),
    })}`;
    for (let r = 0; r < SHAPE.rowsPerBlock; r++) {
      const rowPath = `${blockPath}/rows/${await post(`${blockPath}/rows`, {
        description: `Row ${r + 1} of block ${b + 1}`,
      })}`;
      const columns: SeededColumn[] = [];
      for (let c = 0; c < SHAPE.columnsPerRow; c++) {
        const columnPath = `${rowPath}/columns/${await post(`${rowPath}/columns`, { size: SHAPE.size })}`;
        const contentPaths: string[] = [];
        for (let k = 0; k < SHAPE.contents; k++) {
          const body = k === 0 ? textContentBody(n) : mediaContentBody(n);
          const id = await post(`${columnPath}/contents`, body);
          contentIds.push(id);
          contentPaths.push(`${columnPath}/contents/${id}`);
        }
        n++;
        columns.push({ path: columnPath, contentPaths });
      }
      rows.push({ path: rowPath, columns });
    }
  }
  const columns = rows.flatMap((row) => row.columns);
  return {
    projectId,
    contentIds,
    account: {
      username,
      token,
      projectPath,
      rows,
      columns,
      contentPaths: columns.flatMap((column) => column.contentPaths),
    },
  };
}

/**
 * Puts the seeded projects back as seeded after a write scenario, so that every run (and the
 * other server) starts from the same data: the contents it created go (they were appended, so
 * positions stay dense) and every column gets its seeded size back. Requests the load generator
 * abandoned when its time was up may still be running in the server, so this first waits until
 * the server's database sessions are quiet, and then locks the columns as every writer does.
 */
export async function resetSeededProjects(
  db: Client,
  fixture: Fixture,
  applicationName: string,
): Promise<void> {
  await waitUntilQuiet(db, applicationName);
  await db.query('BEGIN');
  try {
    await db.query(
      'SELECT 1 FROM columns WHERE project_id = ANY($1::uuid[]) ORDER BY id FOR UPDATE',
      [fixture.projectIds],
    );
    await db.query(
      'DELETE FROM contents WHERE project_id = ANY($1::uuid[]) AND NOT (id = ANY($2::uuid[]))',
      [fixture.projectIds, fixture.contentIds],
    );
    await db.query(
      'UPDATE columns SET size = $2 WHERE project_id = ANY($1::uuid[]) AND size <> $2',
      [fixture.projectIds, SHAPE.size],
    );
    await db.query('COMMIT');
  } catch (error) {
    await db.query('ROLLBACK');
    throw error;
  }
}

/** Until no session of `applicationName` on this database has been busy for 300 ms. */
async function waitUntilQuiet(db: Client, applicationName: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    const { rows } = await db.query<{ busy: number }>(
      `SELECT count(*)::int AS busy FROM pg_stat_activity
       WHERE datname = current_database() AND application_name = $1 AND state <> 'idle'`,
      [applicationName],
    );
    if (rows[0].busy > 0) quietSince = Date.now();
    else if (Date.now() - quietSince >= 300) return;
    await sleep(50);
  }
  throw new Error(`${applicationName} still busy 15 s after the load stopped`);
}
