import { randomBytes } from 'node:crypto';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { AccountPurgeRepository } from '../../apps/api/src/accounts/account-purge.repository';
import { Api, createLayout, startTestApp } from '../support/test-app';
import { eventually } from '../support/eventually';

const password = 'a long enough password';
// Projects written in SQL beside the few made through the API: enough that purging them one
// transaction each takes many transactions, few enough for a test.
const BULK_PROJECTS = 2_000;

async function connect(): Promise<Client> {
  const client = new Client({ connectionString: process.env.LAYOUT_TEST_DATABASE_URL });
  await client.connect();
  return client;
}

describe('deleting an account that stored a lot', () => {
  let app: NestFastifyApplication;
  let api: Api;
  let db: Client;

  beforeAll(async () => {
    app = await startTestApp();
    api = new Api(app);
    db = await connect();
  });
  afterAll(async () => {
    await db.end();
    await app.close();
  });

  const count = async (text: string, values: unknown[]) =>
    Number((await db.query<{ n: string }>(text, values)).rows[0].n);
  const projectsOf = (accountId: string) =>
    count('SELECT count(*) AS n FROM projects WHERE owner_id = $1', [accountId]);
  const accountExists = async (accountId: string) =>
    (await count('SELECT count(*) AS n FROM accounts WHERE id = $1', [accountId])) === 1;

  /** An account with three projects made through the API (with trees) and many made in SQL. */
  async function heavyAccount() {
    const username = `heavy-${randomBytes(5).toString('hex')}`;
    const { token, id } = await api.newAccount(username);
    const layouts = [];
    for (let i = 0; i < 3; i += 1) {
      const layout = await createLayout(api, token);
      for (let j = 0; j < 5; j += 1) {
        await api.post(layout.contents, { type: 'text', data: { html: `<p>${j}</p>` } }, { token });
      }
      layouts.push(layout);
    }
    await db.query(
      `WITH made AS (
         INSERT INTO projects (owner_id, title)
         SELECT $1, 'bulk ' || n FROM generate_series(1, $2::int) n RETURNING 1)
       UPDATE accounts SET project_count = project_count + (SELECT count(*) FROM made)
       WHERE id = $1`,
      [id, BULK_PROJECTS],
    );
    const me = await api.get('/accounts/auth/me', { token });
    return { token, id, username: me.body.username as string, layouts };
  }

  it('is immediate for every reader, purges a project per transaction, and holds up no one else', async () => {
    const heavy = await heavyAccount();
    const projectId = (path: string) => path.split('/').pop() as string;
    const held = projectId(heavy.layouts[0].project);
    expect(await projectsOf(heavy.id)).toBe(3 + BULK_PROJECTS);
    const neighbour = await api.newAccount('neighbour');
    const neighbourLayout = await createLayout(api, neighbour.token);

    // A write of the heavy account still holds one of its projects' locks, as the layout's
    // writes take it (FOR NO KEY UPDATE), for as long as this test says.
    const writer = await connect();
    try {
      await writer.query('BEGIN');
      await writer.query('SELECT 1 FROM projects WHERE id = $1 FOR NO KEY UPDATE', [held]);

      // Answered without waiting for that lock, and without deleting anything yet.
      const deleted = await api.delete('/accounts/auth/me', { token: heavy.token });
      expect(deleted.status).toBe(204);

      // Gone for every reader from this answer on.
      expect((await api.get(heavy.layouts[1].project, { token: heavy.token })).status).toBe(401);
      expect((await api.get(heavy.layouts[1].project, { token: neighbour.token })).status).toBe(
        404,
      );
      const again = await api.post('/accounts', { username: heavy.username, password });
      expect(again.status).toBe(201);
      const successor = (
        await api.post('/accounts/auth/token', { username: heavy.username, password })
      ).body.token;
      expect((await api.get('/projects', { token: successor })).body).toEqual([]);

      // The purge deletes every project but the held one, each in a transaction of its own
      // (one transaction for all would wait for the held lock), while the neighbour writes.
      let neighbourWrites = 0;
      await eventually(
        async () => {
          const wrote = await api.post(
            neighbourLayout.contents,
            { type: 'text', data: { html: `<p>${neighbourWrites}</p>` } },
            { token: neighbour.token },
          );
          expect(wrote.status).toBe(201);
          neighbourWrites += 1;
          return (await projectsOf(heavy.id)) === 1;
        },
        'every project but the held one purged',
        60_000,
      );
      expect(neighbourWrites).toBeGreaterThan(0);
      expect(
        await count('SELECT count(*) AS n FROM projects WHERE id = $1 AND owner_id = $2', [
          held,
          heavy.id,
        ]),
      ).toBe(1);
      expect(await accountExists(heavy.id)).toBe(true);
    } finally {
      await writer.query('ROLLBACK');
      await writer.end();
    }

    // Once the write is over, the last project goes, and the account with it.
    await eventually(async () => !(await accountExists(heavy.id)), 'the account purged', 60_000);
    expect(await projectsOf(heavy.id)).toBe(0);
    expect(
      await count(
        `SELECT (SELECT count(*) FROM blocks WHERE project_id = ANY($1::uuid[]))
              + (SELECT count(*) FROM contents WHERE project_id = ANY($1::uuid[]))
              + (SELECT count(*) FROM node_versions WHERE project_id = ANY($1::uuid[])) AS n`,
        [heavy.layouts.map((layout) => projectId(layout.project))],
      ),
    ).toBe(0);
    // The neighbour's project is whole.
    const neighbourProject = await api.get(neighbourLayout.project, { token: neighbour.token });
    expect(neighbourProject.status).toBe(200);
  });
});

describe('a deletion left unpurged (the instance that started it crashed)', () => {
  it('is purged by the next instance that starts', async () => {
    const db = await connect();
    let app: NestFastifyApplication | undefined;
    try {
      const setup = await startTestApp();
      let accountId = '';
      try {
        const api = new Api(setup);
        const { token, id } = await api.newAccount('crashed');
        accountId = id;
        await createLayout(api, token);
        await api.post('/projects', { title: 'second' }, { token });
      } finally {
        await setup.close();
      }
      // What the deletion's transaction leaves behind, and nothing of what the purge does.
      await db.query(
        `UPDATE accounts SET deleted_at = now(), username_key = NULL, username = '',
           password_hash = '' WHERE id = $1`,
        [accountId],
      );
      await db.query('DELETE FROM access_tokens WHERE account_id = $1', [accountId]);

      app = await startTestApp();
      await eventually(
        async () =>
          (await db.query('SELECT 1 FROM accounts WHERE id = $1', [accountId])).rows.length === 0,
        'the account purged by the new instance',
        60_000,
      );
      const left = await db.query('SELECT 1 FROM projects WHERE owner_id = $1', [accountId]);
      expect(left.rows).toEqual([]);
    } finally {
      await app?.close();
      await db.end();
    }
  });

  it('never touches the projects of an account that is not deleted', async () => {
    const db = await connect();
    const app = await startTestApp();
    try {
      const api = new Api(app);
      const { token, id } = await api.newAccount('alive');
      const project = await api.post('/projects', { title: 'mine' }, { token });
      // Even asked to, by a caller that got it wrong.
      const repository = app.get(AccountPurgeRepository);
      expect(await repository.deleteOneProject(id)).toBe(false);
      expect(await repository.deleteIfPurged(id)).toBe(false);
      expect((await api.get(`/projects/${project.body._id}`, { token })).status).toBe(200);
    } finally {
      await app.close();
      await db.end();
    }
  });
});
