import { randomUUID } from 'node:crypto';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import {
  type EventStreamClient,
  openEventStream,
  type PresentAccount,
} from '../support/event-stream-client';
import { Api, createLayout, type LayoutPaths, startTestApp } from '../support/test-app';

type Account = { token: string; username: string; id: string };

/** CONTRACT.md, part three, "Presence": two instances, streams on both. */
describe('presence', () => {
  let apps: NestFastifyApplication[];
  let apis: Api[];
  let db: Client;
  const streams: EventStreamClient[] = [];

  beforeAll(async () => {
    const env = { EVENTS_HEARTBEAT_MS: '300' };
    apps = await Promise.all([startTestApp(env), startTestApp(env)]);
    apis = apps.map((app) => new Api(app));
    db = new Client({ connectionString: process.env.LAYOUT_TEST_DATABASE_URL });
    await db.connect();
  });
  afterEach(() => {
    for (const stream of streams.splice(0)) stream.close();
  });
  afterAll(async () => {
    await db.end();
    await Promise.all(apps.map((app) => app.close()));
  });

  /** A project of a new owner, with an editor and a viewer. */
  async function team() {
    const owner = await apis[0].newAccount('owner');
    const editor = await apis[0].newAccount('editor');
    const viewer = await apis[0].newAccount('viewer');
    const paths = await createLayout(apis[0], owner.token);
    for (const [member, role] of [
      [editor, 'editor'],
      [viewer, 'viewer'],
    ] as const) {
      const added = await apis[0].post(
        `${paths.project}/members`,
        { username: member.username, role },
        { token: owner.token },
      );
      expect(added.status).toBe(201);
    }
    return { owner, editor, viewer, paths };
  }

  const open = async (instance: number, paths: LayoutPaths, account: Account, query = '') => {
    const stream = await openEventStream(
      `${apis[instance].baseUrl}${paths.project}/events${query}`,
      { authorization: `Bearer ${account.token}` },
    );
    expect(stream.status).toBe(200);
    streams.push(stream);
    return stream;
  };
  const whoIs = (present: PresentAccount[]) => present.map((entry) => entry.account._id);
  const entryOf = (present: PresentAccount[], account: Account) =>
    present.find((entry) => entry.account._id === account.id);
  const locationOf = (account: Account) => (present: PresentAccount[]) =>
    entryOf(present, account)?.location;

  it('sends every stream the presence first, without an id, the caller included, and again as accounts come and go on any instance', async () => {
    const { owner, editor, paths } = await team();
    const first = await open(0, paths, owner);
    const mine = await first.waitForPresence((present) => present.length === 1, 'the owner');
    expect(first.received[0]).toEqual({ event: 'presence', data: expect.any(String) });
    expect(mine).toEqual([
      {
        account: { _id: owner.id, username: owner.username },
        location: null,
        state: 'viewing',
        since: expect.any(String),
      },
    ]);
    const second = await open(1, paths, editor);
    const both = await first.waitForPresence((present) => present.length === 2, 'both');
    // Ordered by when each became present.
    expect(whoIs(both)).toEqual([owner.id, editor.id]);
    expect(whoIs(await second.waitForPresence((p) => p.length === 2, 'both'))).toEqual([
      owner.id,
      editor.id,
    ]);
    expect(second.received[0].event).toBe('presence');
    // A second stream of one account: it is present once, since its first.
    const again = await open(0, paths, editor);
    expect(whoIs(await again.waitForPresence((p) => p.length === 2, 'both'))).toEqual([
      owner.id,
      editor.id,
    ]);
    again.close();
    second.close();
    expect(whoIs(await first.waitForPresence((p) => p.length === 1, 'the editor gone'))).toEqual([
      owner.id,
    ]);
    const got = await apis[1].get(`${paths.project}/presence`, { token: editor.token });
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ present: first.presence.at(-1) });
    expect(got.headers.etag).toMatch(/^"s[0-9a-f]{32}"$/);
    const unchanged = await apis[1].get(`${paths.project}/presence`, {
      token: editor.token,
      headers: { 'if-none-match': got.headers.etag as string },
    });
    expect(unchanged.status).toBe(304);
  });

  it('says where each account is, to every stream on every instance, and refuses a path of elsewhere and a viewer editing', async () => {
    const { owner, editor, viewer, paths } = await team();
    const watching = await open(0, paths, owner);
    const editing = await open(1, paths, editor);
    await watching.waitForPresence((p) => p.length === 2, 'both');
    const said = await apis[1].put(
      `${paths.project}/presence`,
      { location: paths.block, state: 'editing' },
      { token: editor.token },
    );
    expect(said.status).toBe(204);
    for (const stream of [watching, editing]) {
      const present = await stream.waitForPresence(
        (p) => locationOf(editor)(p) === paths.block,
        'the editor at the block',
      );
      expect(entryOf(present, editor)).toMatchObject({ state: 'editing' });
    }
    // Members left out keep their value.
    await apis[0].put(`${paths.project}/presence`, { state: 'viewing' }, { token: editor.token });
    const viewing = await watching.waitForPresence(
      (p) => entryOf(p, editor)?.state === 'viewing',
      'the editor viewing',
    );
    expect(locationOf(editor)(viewing)).toBe(paths.block);

    const other = await createLayout(apis[0], owner.token);
    const refusals = [
      { location: other.block },
      { location: `${paths.project}/blocks/${randomUUID()}` },
      { location: `${paths.block}/rows/${other.row.split('/').at(-1)}` },
      { location: '/elsewhere' },
      { location: 42 },
      { state: 'away' },
    ];
    for (const body of refusals) {
      const refused = await apis[0].put(`${paths.project}/presence`, body, { token: editor.token });
      expect({ body, status: refused.status, type: refused.body.type }).toEqual({
        body,
        status: 400,
        type: '/problems/validation',
      });
    }
    const viewerEditing = await apis[1].put(
      `${paths.project}/presence`,
      { state: 'editing' },
      { token: viewer.token },
    );
    expect(viewerEditing.status).toBe(403);
    expect(viewerEditing.body).toMatchObject({
      type: '/problems/forbidden-by-role',
      role: 'viewer',
      required: 'editor',
    });
    expect(
      (
        await apis[1].put(
          `${paths.project}/presence`,
          { location: paths.column },
          { token: viewer.token },
        )
      ).status,
    ).toBe(204);
    const stranger = await apis[0].newAccount('stranger');
    expect(
      (
        await apis[0].put(
          `${paths.project}/presence`,
          { location: null },
          { token: stranger.token },
        )
      ).status,
    ).toBe(404);
    expect((await apis[0].get(`${paths.project}/presence`, { token: stranger.token })).status).toBe(
      404,
    );
  });

  it('clears a location when its node is deleted or moved away, and keeps it out of the history', async () => {
    const { owner, editor, paths } = await team();
    const watching = await open(1, paths, owner);
    await open(0, paths, editor);
    const content = (await apis[0].post(paths.contents, { type: 'empty' }, { token: editor.token }))
      .headers.location as string;
    const revision = (await apis[0].get(paths.project, { token: owner.token })).body.revision;
    await apis[0].put(`${paths.project}/presence`, { location: content }, { token: editor.token });
    await watching.waitForPresence((p) => locationOf(editor)(p) === content, 'at the content');
    // Presence is kept outside the history: no revision.
    expect((await apis[0].get(paths.project, { token: owner.token })).body.revision).toBe(revision);

    expect((await apis[1].delete(content, { token: owner.token })).status).toBe(204);
    await watching.waitForPresence((p) => locationOf(editor)(p) === null, 'the location cleared');
    // An undo brings the node back, not the location.
    const undo = await apis[0].post(
      `${paths.project}/revisions/${revision + 1}/restore`,
      {},
      { token: owner.token },
    );
    expect(undo.status).toBe(200);
    expect(
      (await apis[0].get(`${paths.project}/presence`, { token: owner.token })).body.present,
    ).toEqual(expect.arrayContaining([expect.objectContaining({ location: null })]));

    // Moved to another row: its path is not the one said any more.
    const row = (await apis[0].post(`${paths.block}/rows`, {}, { token: owner.token })).headers
      .location as string;
    await apis[0].put(
      `${paths.project}/presence`,
      { location: paths.column },
      { token: editor.token },
    );
    await watching.waitForPresence((p) => locationOf(editor)(p) === paths.column, 'at the column');
    const moved = await apis[1].post(
      `${paths.column}/move`,
      { rowId: row.split('/').at(-1) },
      { token: owner.token },
    );
    expect(moved.status).toBe(200);
    await watching.waitForPresence((p) => locationOf(editor)(p) === null, 'the location cleared');
  });

  it('gives a resumed stream the current presence first, then what it missed', async () => {
    const { owner, paths } = await team();
    const before = (await apis[0].get(paths.project, { token: owner.token })).body.revision;
    await apis[0].post(paths.contents, { type: 'empty' }, { token: owner.token });
    const resumed = await open(1, paths, owner, `?lastEventId=${before}`);
    await resumed.waitFor((events) => events.length === 1, 'the missed change');
    expect(resumed.received.map((event) => event.event)).toEqual(['presence', 'change']);
    expect(resumed.received[0].id).toBeUndefined();
  });

  it('drops an account whose streams were on an instance that died, when their leases run out', async () => {
    const { owner, editor, paths } = await team();
    const watching = await open(0, paths, owner);
    await watching.waitForPresence((p) => p.length === 1, 'the owner');
    // The lease of a stream whose instance died: nobody renews it, nobody announces its end.
    const [{ token_hash: tokenHash }] = (
      await db.query<{ token_hash: string }>(
        'SELECT token_hash FROM access_tokens WHERE account_id = $1 LIMIT 1',
        [editor.id],
      )
    ).rows;
    await db.query(
      `INSERT INTO event_streams (id, account_id, project_id, expires_at, token_hash)
       VALUES ($1, $2, $3, now() + interval '2 seconds', $4)`,
      [randomUUID(), editor.id, paths.project.split('/')[2], tokenHash],
    );
    await db.query(`SELECT pg_notify('layout_presence', $1)`, [paths.project.split('/')[2]]);
    await watching.waitForPresence((p) => p.length === 2, 'the editor present');
    await watching.waitForPresence((p) => p.length === 1, 'the editor gone with its lease');
    expect(whoIs(watching.presence.at(-1)!)).toEqual([owner.id]);
  });
});
