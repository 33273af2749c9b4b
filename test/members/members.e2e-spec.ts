import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { image } from '../assets/images';
import { eventually } from '../support/eventually';
import { Api, createLayout, type LayoutPaths, type Response } from '../support/test-app';
import { startTestApp } from '../support/test-app';

type Account = { token: string; username: string; id: string };

/** An id of the same shape as `id` that is not `id`: its last digit changed, whatever it was. */
const unknownId = (id: string) => id.slice(0, -1) + (id.endsWith('0') ? '1' : '0');

/** CONTRACT.md, part three, "Members and roles". */
describe('members and roles', () => {
  let app: NestFastifyApplication;
  let api: Api;
  let db: Client;

  beforeAll(async () => {
    app = await startTestApp();
    api = new Api(app);
    db = new Client({ connectionString: process.env.LAYOUT_TEST_DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await app.close();
  });

  /** A project of a new owner, with a tree, and new accounts made its members in `roles`. */
  async function team(...roles: Array<'editor' | 'viewer'>) {
    const owner = await api.newAccount('owner');
    const paths = await createLayout(api, owner.token);
    const members: Account[] = [];
    for (const role of roles) {
      const member = await api.newAccount(role);
      const added = await api.post(
        `${paths.project}/members`,
        { username: member.username, role },
        { token: owner.token },
      );
      expect(added.status).toBe(201);
      members.push(member);
    }
    return { owner, paths, members };
  }

  const membersOf = async (paths: LayoutPaths, token: string) =>
    (await api.get(`${paths.project}/members`, { token })).body as Array<{
      account: { _id: string; username: string };
      role: string;
    }>;
  const revisionOf = async (paths: LayoutPaths, token: string) =>
    (await api.get(paths.project, { token })).body.revision as number;
  const forbidden = (response: Response, role: string, required: string) => {
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ type: '/problems/forbidden-by-role', role, required });
  };
  const problem = (response: Response, status: number, type: string) => {
    expect({ status: response.status, type: response.body?.type }).toEqual({
      status,
      type: `/problems/${type}`,
    });
  };

  it('makes the creator the owner, its one member, and lists every project of a member with its role', async () => {
    const { owner, paths, members } = await team();
    expect(members).toEqual([]);
    const listed = await api.get(`${paths.project}/members`, { token: owner.token });
    expect(listed.status).toBe(200);
    expect(listed.headers.etag).toMatch(/^"m[0-9a-f]{32}"$/);
    expect(listed.body).toEqual([
      {
        account: { _id: owner.id, username: owner.username },
        role: 'owner',
        addedAt: expect.any(String),
      },
    ]);
    const again = await api.get(`${paths.project}/members`, {
      token: owner.token,
      headers: { 'if-none-match': listed.headers.etag as string },
    });
    expect(again.status).toBe(304);

    const grace = await api.newAccount('grace');
    const mine = (await api.post('/projects', { title: 'Her own' }, { token: grace.token })).body;
    // Added by the name as typed in another case: usernames compare regardless of case.
    const added = await api.post(
      `${paths.project}/members`,
      { username: grace.username.toUpperCase(), role: 'viewer' },
      { token: owner.token },
    );
    expect(added.status).toBe(201);
    expect(added.headers.location).toBe(`${paths.project}/members/${grace.id}`);
    expect(added.body).toEqual({
      account: { _id: grace.id, username: grace.username },
      role: 'viewer',
      addedAt: expect.any(String),
    });
    const projects = (await api.get('/projects', { token: grace.token })).body as Array<{
      _id: string;
      role: string;
    }>;
    // In the projects' creation order: the shared one was made first.
    expect(projects.map(({ _id, role }) => ({ _id, role }))).toEqual([
      { _id: paths.project.split('/')[2], role: 'viewer' },
      { _id: mine._id, role: 'owner' },
    ]);
    // The owner first, then by the time they were added.
    expect((await membersOf(paths, grace.token)).map((m) => m.role)).toEqual(['owner', 'viewer']);
  });

  it('refuses an unknown username, a member added twice, an owner added, and more than 100 members', async () => {
    const { owner, paths, members } = await team('editor');
    const at = `${paths.project}/members`;
    const token = owner.token;
    problem(
      await api.post(at, { username: 'nobody-at-all-here', role: 'viewer' }, { token }),
      404,
      'account-not-found',
    );
    problem(
      await api.post(at, { username: members[0].username, role: 'viewer' }, { token }),
      409,
      'already-a-member',
    );
    problem(
      await api.post(at, { username: owner.username, role: 'editor' }, { token }),
      409,
      'already-a-member',
    );
    problem(await api.post(at, { username: 'x', role: 'owner' }, { token }), 400, 'validation');
    problem(await api.post(at, { username: 'x' }, { token }), 400, 'validation');

    // 98 more accounts made in SQL, added in SQL: 100 members.
    const made = await db.query<{ id: string; username: string }>(
      `INSERT INTO accounts (username, username_key, password_hash)
       SELECT 'bulk-' || $1 || '-' || n, 'bulk-' || $1 || '-' || n, 'x'
       FROM generate_series(1, 99) n RETURNING id, username`,
      [paths.project.split('/')[2]],
    );
    const [last, ...rest] = made.rows;
    await db.query(
      `INSERT INTO project_members (project_id, account_id, role, project_created_at)
       SELECT p.id, a, 'viewer', p.created_at FROM projects p, unnest($2::uuid[]) a
       WHERE p.id = $1`,
      [paths.project.split('/')[2], rest.map((row) => row.id)],
    );
    expect(await membersOf(paths, token)).toHaveLength(100);
    const full = await api.post(at, { username: last.username, role: 'viewer' }, { token });
    problem(full, 409, 'limit-exceeded');
    expect(full.body.limit).toBe(100);
    expect(await membersOf(paths, token)).toHaveLength(100);
  });

  it('lets a viewer read everything but write nothing (403 with its role and the one needed), an editor write', async () => {
    const { owner, paths, members } = await team('editor', 'viewer');
    const [editor, viewer] = members;
    for (const path of [
      paths.project,
      paths.block,
      paths.row,
      paths.columns,
      `${paths.project}/revisions`,
    ]) {
      expect((await api.get(path, { token: viewer.token })).status).toBe(200);
    }
    const before = await revisionOf(paths, owner.token);
    forbidden(
      await api.post(paths.contents, { type: 'empty' }, { token: viewer.token }),
      'viewer',
      'editor',
    );
    forbidden(
      await api.put(paths.project, { title: 'Mine' }, { token: viewer.token }),
      'viewer',
      'editor',
    );
    // A body the write would refuse: the role is what is refused first.
    forbidden(
      await api.put(paths.column, { size: 'six' }, { token: viewer.token }),
      'viewer',
      'editor',
    );
    forbidden(await api.delete(paths.project, { token: editor.token }), 'editor', 'owner');
    forbidden(
      await api.post(
        `${paths.project}/members`,
        { username: viewer.username, role: 'editor' },
        { token: editor.token },
      ),
      'editor',
      'owner',
    );
    expect(await revisionOf(paths, owner.token)).toBe(before);

    const made = await api.post(paths.contents, { type: 'empty' }, { token: editor.token });
    expect(made.status).toBe(201);
    expect(await revisionOf(paths, owner.token)).toBe(before + 1);
    // A viewer copies the project into a project of its own.
    const copy = await api.post(`${paths.project}/duplicate`, {}, { token: viewer.token });
    expect(copy.status).toBe(201);
    const copied = await api.get(
      `${paths.project.split('/').slice(0, 2).join('/')}/${copy.body._id}/members`,
      {
        token: viewer.token,
      },
    );
    expect(copied.body).toEqual([
      expect.objectContaining({
        role: 'owner',
        account: { _id: viewer.id, username: viewer.username },
      }),
    ]);
    // Share links: editors create and revoke them, viewers list them.
    const link = await api.post(`${paths.project}/links`, {}, { token: editor.token });
    expect(link.status).toBe(201);
    forbidden(
      await api.post(`${paths.project}/links`, {}, { token: viewer.token }),
      'viewer',
      'editor',
    );
    expect((await api.get(`${paths.project}/links`, { token: viewer.token })).body).toHaveLength(1);
    forbidden(
      await api.delete(`${paths.project}/links/${link.body._id}`, { token: viewer.token }),
      'viewer',
      'editor',
    );
    expect(
      (await api.delete(`${paths.project}/links/${link.body._id}`, { token: editor.token })).status,
    ).toBe(204);
  });

  it('changes a role at once, without changing the project’s revision or any tag', async () => {
    const { owner, paths, members } = await team('editor');
    const [member] = members;
    const at = `${paths.project}/members/${member.id}`;
    const tagOf = async (path: string) =>
      (await api.get(path, { token: owner.token })).headers.etag;
    const tags = [await tagOf(paths.project), await tagOf(paths.column)];

    const viewer = await api.put(at, { role: 'viewer' }, { token: owner.token });
    expect(viewer.status).toBe(200);
    expect(viewer.body).toMatchObject({ account: { _id: member.id }, role: 'viewer' });
    forbidden(
      await api.put(paths.column, { size: 3 }, { token: member.token }),
      'viewer',
      'editor',
    );
    expect([await tagOf(paths.project), await tagOf(paths.column)]).toEqual(tags);

    expect((await api.put(at, { role: 'editor' }, { token: owner.token })).status).toBe(200);
    expect((await api.put(paths.column, { size: 3 }, { token: member.token })).status).toBe(200);
    problem(await api.put(at, { role: 'admin' }, { token: owner.token }), 400, 'validation');
    problem(
      await api.put(
        `${paths.project}/members/${unknownId(owner.id)}`,
        { role: 'viewer' },
        { token: owner.token },
      ),
      404,
      'not-found',
    );
  });

  it('hands the project over: the member becomes its owner and the owner an editor, in one step', async () => {
    const { owner, paths, members } = await team('viewer');
    const [heir] = members;
    problem(
      await api.put(
        `${paths.project}/members/${owner.id}`,
        { role: 'editor' },
        { token: owner.token },
      ),
      409,
      'owner-must-remain',
    );
    const handed = await api.put(
      `${paths.project}/members/${heir.id}`,
      { role: 'owner' },
      { token: owner.token },
    );
    expect(handed.status).toBe(200);
    expect(handed.body.role).toBe('owner');
    expect((await membersOf(paths, owner.token)).map((m) => [m.account._id, m.role])).toEqual([
      [heir.id, 'owner'],
      [owner.id, 'editor'],
    ]);
    forbidden(await api.delete(paths.project, { token: owner.token }), 'editor', 'owner');
    const counts = await db.query<{ id: string; project_count: number }>(
      'SELECT id, project_count FROM accounts WHERE id = ANY ($1::uuid[]) ORDER BY project_count',
      [[owner.id, heir.id]],
    );
    expect(counts.rows).toEqual([
      { id: owner.id, project_count: 0 },
      { id: heir.id, project_count: 1 },
    ]);
    // The former owner edits on; the new one deletes the project, for every member.
    expect((await api.post(paths.contents, { type: 'empty' }, { token: owner.token })).status).toBe(
      201,
    );
    expect((await api.delete(paths.project, { token: heir.token })).status).toBe(204);
    for (const account of [owner, heir]) {
      expect((await api.get(paths.project, { token: account.token })).status).toBe(404);
      expect((await api.get('/projects', { token: account.token })).body).toEqual([]);
    }
  });

  it('lets a member leave and the owner remove one, but not the owner leave; others get 404 at once', async () => {
    const { owner, paths, members } = await team('editor', 'viewer', 'viewer');
    const [editor, leaving, removed] = members;
    const memberPath = (account: Account) => `${paths.project}/members/${account.id}`;
    problem(await api.delete(memberPath(owner), { token: owner.token }), 409, 'owner-must-remain');
    forbidden(await api.delete(memberPath(removed), { token: editor.token }), 'editor', 'owner');
    forbidden(await api.delete(memberPath(owner), { token: editor.token }), 'editor', 'owner');

    expect((await api.delete(memberPath(leaving), { token: leaving.token })).status).toBe(204);
    expect((await api.delete(memberPath(removed), { token: owner.token })).status).toBe(204);
    for (const gone of [leaving, removed]) {
      problem(await api.get(paths.project, { token: gone.token }), 404, 'not-found');
      problem(await api.get(`${paths.project}/members`, { token: gone.token }), 404, 'not-found');
      expect((await api.get('/projects', { token: gone.token })).body).toEqual([]);
    }
    problem(await api.delete(memberPath(removed), { token: owner.token }), 404, 'not-found');
    expect((await membersOf(paths, owner.token)).map((m) => m.account._id)).toEqual([
      owner.id,
      editor.id,
    ]);
    // For an account that is no member, the project and its members do not exist.
    const stranger = await api.newAccount('stranger');
    for (const [method, path, body] of [
      ['GET', `${paths.project}/members`],
      ['POST', `${paths.project}/members`, { username: stranger.username, role: 'editor' }],
      ['PUT', memberPath(editor), { role: 'viewer' }],
      ['DELETE', memberPath(editor)],
      ['DELETE', memberPath(stranger)],
    ] as const) {
      problem(await api.request(method, path, { token: stranger.token, body }), 404, 'not-found');
    }
  });

  it('records who made each revision, and shows a deleted account as null; deleting an account ends its memberships and its projects', async () => {
    const { owner, paths, members } = await team('editor');
    const [editor] = members;
    await api.post(paths.contents, { type: 'empty' }, { token: editor.token });
    await api.put(paths.project, { title: 'Renamed' }, { token: owner.token });
    const authors = async () =>
      (
        (await api.get(`${paths.project}/revisions?limit=2`, { token: owner.token }))
          .body as Array<{
          author: unknown;
        }>
      ).map((entry) => entry.author);
    expect(await authors()).toEqual([
      { _id: owner.id, username: owner.username },
      { _id: editor.id, username: editor.username },
    ]);
    expect((await api.delete('/accounts/auth/me', { token: editor.token })).status).toBe(204);
    expect(await authors()).toEqual([{ _id: owner.id, username: owner.username }, null]);
    expect((await membersOf(paths, owner.token)).map((m) => m.account._id)).toEqual([owner.id]);

    // The owner's deletion: its project exists for nobody from then on.
    const viewer = await api.newAccount('viewer');
    await api.post(
      `${paths.project}/members`,
      { username: viewer.username, role: 'viewer' },
      { token: owner.token },
    );
    expect((await api.get(paths.project, { token: viewer.token })).status).toBe(200);
    expect((await api.delete('/accounts/auth/me', { token: owner.token })).status).toBe(204);
    problem(await api.get(paths.project, { token: viewer.token }), 404, 'not-found');
    expect((await api.get('/projects', { token: viewer.token })).body).toEqual([]);
    await eventually(
      async () =>
        (await db.query('SELECT 1 FROM projects WHERE id = $1', [paths.project.split('/')[2]]))
          .rowCount === 0,
      'the deleted owner’s project purged',
    );
  });

  it('lets an editor name the images a project it is a member of names', async () => {
    const { owner, paths, members } = await team('editor');
    const [editor] = members;
    const uploaded = await api.request('POST', '/assets', {
      token: owner.token,
      raw: await image('png'),
      headers: { 'content-type': 'image/png' },
    });
    expect(uploaded.status).toBe(201);
    const url = uploaded.body.url as string;
    expect(
      (await api.post(paths.contents, { type: 'image', data: { url } }, { token: owner.token }))
        .status,
    ).toBe(201);
    expect(
      (await api.post(paths.contents, { type: 'image', data: { url } }, { token: editor.token }))
        .status,
    ).toBe(201);
    const outsider = await api.newAccount('outsider');
    const own = await createLayout(api, outsider.token);
    problem(
      await api.post(own.contents, { type: 'image', data: { url } }, { token: outsider.token }),
      400,
      'validation',
    );
  });
});
