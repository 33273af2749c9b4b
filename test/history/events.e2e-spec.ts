import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { Api, createLayout, type Response, startTestApp } from '../support/test-app';
import {
  changeRevisions,
  type EventStreamClient,
  openEventStream,
} from '../support/event-stream-client';

const baseUrl = (app: NestFastifyApplication) => {
  const address = app.getHttpServer().address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  return `http://127.0.0.1:${address.port}`;
};

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** CONTRACT.md, part two, "Live changes". */
describe('live changes', () => {
  let apps: NestFastifyApplication[];
  let apis: Api[];
  let token: string;
  let username: string;
  let accountId: string;
  let db: Client;
  const streams: EventStreamClient[] = [];

  beforeAll(async () => {
    const env = { EVENTS_HEARTBEAT_MS: '300' };
    apps = await Promise.all([startTestApp(env), startTestApp(env)]);
    apis = apps.map((app) => new Api(app));
    ({ token, username, id: accountId } = await apis[0].newAccount('events'));
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

  const open = async (
    app: NestFastifyApplication,
    path: string,
    headers: Record<string, string> = { authorization: `Bearer ${token}` },
  ) => {
    const stream = await openEventStream(`${baseUrl(app)}${path}`, headers);
    streams.push(stream);
    return stream;
  };
  const revisionOf = (response: Response) => Number(response.headers['project-revision']);
  /** Waits until the stream has every revision up to `last`. */
  const until = (stream: EventStreamClient, last: number) =>
    stream.waitFor((events) => changeRevisions(events).at(-1) === last, `revision ${last}`);

  it('sends each committed revision once, in order, with what it did and the new tag', async () => {
    const { project, contents } = await createLayout(apis[0], token);
    const stream = await open(apps[0], `${project}/events`);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers['cache-control']).toBe('no-store');
    expect(stream.headers['x-request-id']).toBeDefined();
    const made = await apis[0].post(
      contents,
      { type: 'text', data: { html: '<p>x</p>' } },
      { token },
    );
    const content = made.headers.location as string;
    const edited = await apis[1].put(content, { type: 'quote' }, { token });
    await until(stream, revisionOf(edited));
    const [created, updated] = stream.events;
    expect(created).toEqual({
      id: String(revisionOf(made)),
      event: 'change',
      data: JSON.stringify({
        revision: revisionOf(made),
        operation: 'content.create',
        path: contents,
        etag: `"r${revisionOf(made)}"`,
        author: { _id: accountId, username },
      }),
    });
    expect(JSON.parse(updated.data)).toEqual({
      revision: revisionOf(edited),
      operation: 'content.update',
      path: content,
      etag: `"r${revisionOf(edited)}"`,
      author: { _id: accountId, username },
    });
    // The tag of the event is the project's: a read that answers it is current.
    expect((await apis[1].get(project, { token })).headers.etag).toBe(`"r${revisionOf(edited)}"`);
    // A comment line keeps the stream alive while nothing happens.
    await stream.waitFor(() => stream.comments.includes('keep-alive'), 'a keep-alive');
    expect(stream.events).toHaveLength(2);
  });

  it('resumes after Last-Event-ID from the history, then goes on live', async () => {
    const { project, contents } = await createLayout(apis[0], token);
    for (let i = 0; i < 3; i++) await apis[0].post(contents, { type: 'empty' }, { token });
    const current = (await apis[0].get(project, { token })).body.revision as number;
    const resumed = await open(apps[1], `${project}/events`, {
      authorization: `Bearer ${token}`,
      'last-event-id': String(current - 4),
    });
    const byQuery = await open(apps[0], `${project}/events?lastEventId=${current - 2}`);
    // An empty id is a client that has no last event (the SSE spec's unset id): it starts live,
    // or where the query says.
    const unset = await open(apps[0], `${project}/events`, {
      authorization: `Bearer ${token}`,
      'last-event-id': ' ',
    });
    const unsetByQuery = await open(apps[1], `${project}/events?lastEventId=${current - 1}`, {
      authorization: `Bearer ${token}`,
      'last-event-id': '',
    });
    const live = await apis[1].post(contents, { type: 'empty' }, { token });
    for (const stream of [resumed, byQuery, unset, unsetByQuery])
      await until(stream, revisionOf(live));
    expect(changeRevisions(resumed.events)).toEqual(range(current - 3, current + 1));
    expect(changeRevisions(byQuery.events)).toEqual(range(current - 1, current + 1));
    expect(unset.events.map((e) => e.event)).toEqual(['change']);
    expect(changeRevisions(unset.events)).toEqual([current + 1]);
    expect(changeRevisions(unsetByQuery.events)).toEqual([current, current + 1]);
  });

  it('sends one reset (with data) when what the client missed is no longer kept', async () => {
    const app = await startTestApp({ HISTORY_REVISIONS: '3' });
    try {
      const api = new Api(app);
      const { project, contents } = await createLayout(api, token);
      for (let i = 0; i < 3; i++) await api.post(contents, { type: 'empty' }, { token });
      const current = (await api.get(project, { token })).body.revision as number;
      for (const lastEventId of ['1', 'nonsense', String(current + 5)]) {
        const stream = await open(app, `${project}/events`, {
          authorization: `Bearer ${token}`,
          'last-event-id': lastEventId,
        });
        await stream.waitFor((events) => events.length > 0, 'a reset');
        expect(stream.events).toEqual([
          {
            id: String(current),
            event: 'reset',
            data: JSON.stringify({ revision: current, etag: `"r${current}"` }),
          },
        ]);
        stream.close();
      }
      // Within what is kept, no reset: the revisions themselves.
      const kept = await open(app, `${project}/events`, {
        authorization: `Bearer ${token}`,
        'last-event-id': String(current - 2),
      });
      await until(kept, current);
      expect(kept.events.map((e) => e.event)).toEqual(['change', 'change']);
    } finally {
      await app.close();
    }
  });

  it('misses nothing with writers on two instances and a stream on each', async () => {
    const { project, contents } = await createLayout(apis[0], token);
    const start = (await apis[0].get(project, { token })).body.revision as number;
    const watchers = [
      await open(apps[0], `${project}/events`),
      await open(apps[1], `${project}/events`),
    ];
    const writes = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        apis[i % 2].post(contents, { type: 'empty' }, { token }),
      ),
    );
    expect(writes.map((w) => w.status)).toEqual(Array(40).fill(201));
    for (const watcher of watchers) {
      await until(watcher, start + 40);
      expect(changeRevisions(watcher.events)).toEqual(range(start + 1, start + 40));
    }
  });

  it('fills the gaps of lost and stray notifications from the history', async () => {
    const { project, contents } = await createLayout(apis[0], token);
    const projectId = project.split('/').pop() as string;
    const start = (await apis[0].get(project, { token })).body.revision as number;
    const watchers = [
      await open(apps[0], `${project}/events`),
      await open(apps[1], `${project}/events`),
    ];
    // A stray notification, ahead of anything committed: nothing is sent for it.
    await db.query(`SELECT pg_notify('layout_changes', $1)`, [`${projectId} ${start + 100}`]);
    // Every instance loses its notification connection while the writes commit.
    const cut = db.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE application_name = 'layout-service notifications' AND datname = current_database()`,
    );
    const writes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        apis[i % 2].post(contents, { type: 'empty' }, { token }),
      ),
    );
    await cut;
    expect(writes.map((w) => w.status)).toEqual(Array(20).fill(201));
    for (const watcher of watchers) {
      await until(watcher, start + 20);
      expect(changeRevisions(watcher.events)).toEqual(range(start + 1, start + 20));
    }
    // And once listening again, the live ones follow.
    const next = await apis[1].post(contents, { type: 'empty' }, { token });
    for (const watcher of watchers) await until(watcher, revisionOf(next));
    expect(changeRevisions(watchers[0].events)).toEqual(range(start + 1, start + 21));
  });

  it('opens with a single-use ticket of this project, for EventSource', async () => {
    const { project, contents } = await createLayout(apis[0], token);
    const other = await createLayout(apis[0], token);
    const issued = await apis[0].post(`${project}/events/tickets`, undefined, { token });
    expect(issued.status).toBe(201);
    expect(issued.headers['cache-control']).toBe('no-store');
    expect(issued.body).toEqual({ ticket: expect.stringMatching(/^[\w-]{43}$/), expiresIn: 60 });
    const { ticket } = issued.body as { ticket: string };

    const wrongProject = await open(apps[1], `${other.project}/events?ticket=${ticket}`, {});
    expect(wrongProject.status).toBe(401);
    const stream = await open(apps[1], `${project}/events?ticket=${ticket}`, {});
    expect(stream.status).toBe(200);
    const made = await apis[0].post(contents, { type: 'empty' }, { token });
    await until(stream, revisionOf(made));
    const again = await open(apps[0], `${project}/events?ticket=${ticket}`, {});
    expect(again.status).toBe(401);
    expect(again.headers['content-type']).toMatch(/^application\/problem\+json/);

    const expired = (await apis[0].post(`${project}/events/tickets`, undefined, { token })).body;
    await db.query(`UPDATE event_tickets SET expires_at = now() - interval '1 second'`);
    expect((await open(apps[0], `${project}/events?ticket=${expired.ticket}`, {})).status).toBe(
      401,
    );
    expect((await open(apps[0], `${project}/events?ticket=${'x'.repeat(43)}`, {})).status).toBe(
      401,
    );
    // A malformed or made-up ticket is one that does not exist: 401, whatever its shape.
    for (const query of ['ticket=short', 'ticket=', `ticket=${ticket}&ticket=${ticket}`]) {
      expect((await open(apps[0], `${project}/events?${query}`, {})).status).toBe(401);
    }
    // No body or `{}` asks for a ticket; a member is an unknown one.
    expect((await apis[1].post(`${project}/events/tickets`, {}, { token })).status).toBe(201);
    const refused = await apis[1].post(`${project}/events/tickets`, { project }, { token });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ type: '/problems/validation' });
  });

  it('ends the streams of a revoked token on every instance, and refuses its tickets', async () => {
    const { project, contents } = await createLayout(apis[0], token);
    const signIn = async () =>
      (
        await apis[0].post('/accounts/auth/token', {
          username,
          password: 'correct horse battery staple',
        })
      ).body.token as string;
    const [revoked, kept] = [await signIn(), await signIn()];
    const bearer = (bearerToken: string) => ({ authorization: `Bearer ${bearerToken}` });
    const ticketFor = async (holder: string) =>
      (await apis[0].post(`${project}/events/tickets`, undefined, { token: holder })).body
        .ticket as string;
    const byToken = await open(apps[1], `${project}/events`, bearer(revoked));
    const byTicket = await open(
      apps[0],
      `${project}/events?ticket=${await ticketFor(revoked)}`,
      {},
    );
    const unused = await ticketFor(revoked);
    const other = await open(apps[1], `${project}/events`, bearer(kept));
    expect([byToken.status, byTicket.status, other.status]).toEqual([200, 200, 200]);

    expect((await apis[0].delete('/accounts/auth/token', { token: revoked })).status).toBe(204);
    await Promise.all([byToken.ended, byTicket.ended]);
    expect([byToken.endedCleanly, byTicket.endedCleanly]).toEqual([true, true]);
    expect((await open(apps[0], `${project}/events?ticket=${unused}`, {})).status).toBe(401);
    expect((await open(apps[0], `${project}/events`, bearer(revoked))).status).toBe(401);
    // The account's other token keeps its stream.
    const made = await apis[0].post(contents, { type: 'empty' }, { token: kept });
    await until(other, revisionOf(made));
  });

  it('answers 401, not a server error, when the token went between its check and its use', async () => {
    const { project } = await createLayout(apis[0], token);
    const gone = (
      await apis[0].post('/accounts/auth/token', {
        username,
        password: 'correct horse battery staple',
      })
    ).body.token as string;
    const ticket = (await apis[0].post(`${project}/events/tickets`, undefined, { token: gone }))
      .body.ticket as string;
    // Deleted behind the instances' backs: their token caches still let it through.
    await db.query(
      'DELETE FROM access_tokens WHERE token_hash = encode(sha256(convert_to($1, $2)), $3)',
      [gone, 'UTF8', 'hex'],
    );
    const issued = await apis[0].post(`${project}/events/tickets`, undefined, { token: gone });
    const opened = await open(apps[0], `${project}/events`, { authorization: `Bearer ${gone}` });
    const byTicket = await open(apps[0], `${project}/events?ticket=${ticket}`, {});
    expect([issued.status, opened.status, byTicket.status]).toEqual([401, 401, 401]);
    expect(issued.body).toMatchObject({ type: '/problems/unauthorized', status: 401 });
  });

  it('ends the stream of a token that expired at its next keep-alive, and keeps the others', async () => {
    const { project, contents } = await createLayout(apis[0], token);
    const expiring = (
      await apis[0].post('/accounts/auth/token', {
        username,
        password: 'correct horse battery staple',
      })
    ).body.token as string;
    const stream = await open(apps[1], `${project}/events`, {
      authorization: `Bearer ${expiring}`,
    });
    const other = await open(apps[1], `${project}/events`);
    expect([stream.status, other.status]).toEqual([200, 200]);
    // Expired, not revoked: no notice goes out, and the instances' token caches still hold it.
    await db.query(
      `UPDATE access_tokens SET expires_at = now() - interval '1 second'
         WHERE token_hash = encode(sha256(convert_to($1, $2)), $3)`,
      [expiring, 'UTF8', 'hex'],
    );
    await stream.ended;
    expect(stream.endedCleanly).toBe(true);
    // The other token's stream, on the same instance, saw the same keep-alives and goes on.
    const made = await apis[0].post(contents, { type: 'empty' }, { token });
    await until(other, revisionOf(made));
    expect(
      (await open(apps[0], `${project}/events`, { authorization: `Bearer ${expiring}` })).status,
    ).toBe(401);
  });

  it('answers 404 for another account’s project, with a token or for a ticket', async () => {
    const { project } = await createLayout(apis[0], token);
    const other = await apis[0].newAccount('events-other');
    const stream = await open(apps[0], `${project}/events`, {
      authorization: `Bearer ${other.token}`,
    });
    expect(stream.status).toBe(404);
    expect(
      (await apis[0].post(`${project}/events/tickets`, undefined, { token: other.token })).status,
    ).toBe(404);
    expect((await open(apps[0], `${project}/events`, {})).status).toBe(401);
  });

  it('holds at most 10 streams per account across instances (429 beyond), and frees them', async () => {
    const account = await apis[0].newAccount('events-limit');
    const auth = { authorization: `Bearer ${account.token}` };
    const { project } = await createLayout(apis[0], account.token);
    const opened = await Promise.all(
      Array.from({ length: 12 }, (_, i) => open(apps[i % 2], `${project}/events`, auth)),
    );
    const statuses = opened.map((s) => s.status).sort();
    expect(statuses).toEqual([...Array(10).fill(200), 429, 429]);
    const refused = opened.find((s) => s.status === 429)!;
    expect(JSON.parse(refused.text!)).toMatchObject({
      type: '/problems/too-many-streams',
      status: 429,
      limit: 10,
    });
    // Another account is not held back by this one's streams.
    expect(
      (await open(apps[0], `${(await createLayout(apis[0], token)).project}/events`)).status,
    ).toBe(200);
    opened.find((s) => s.status === 200)!.close();
    // The closed stream's slot comes free (its instance releases it once the connection closes).
    let reopened: EventStreamClient | undefined;
    for (let attempt = 0; attempt < 100 && reopened?.status !== 200; attempt++) {
      reopened?.close();
      await new Promise((resolve) => setTimeout(resolve, 50));
      reopened = await open(apps[1], `${project}/events`, auth);
    }
    expect(reopened?.status).toBe(200);
  });

  it('answers HEAD with the stream’s headers and no body, and holds no stream for it', async () => {
    const account = await apis[0].newAccount('events-head');
    const { project } = await createLayout(apis[0], account.token);
    // More than an account's streams: a HEAD that held one would leave the GET below a 429.
    for (let i = 0; i < 12; i++) {
      const head = await apis[i % 2].request('HEAD', `${project}/events`, {
        token: account.token,
      });
      expect(head.status).toBe(200);
      expect(head.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      expect(head.headers['cache-control']).toBe('no-store');
      expect(head.text).toBe('');
    }
    const other = await apis[0].newAccount('events-head-other');
    expect(
      (await apis[1].request('HEAD', `${project}/events`, { token: other.token })).status,
    ).toBe(404);
    const stream = await open(apps[0], `${project}/events`, {
      authorization: `Bearer ${account.token}`,
    });
    expect(stream.status).toBe(200);
    // A HEAD with a ticket answers as its GET would, and leaves the ticket for that GET.
    const { ticket } = (
      await apis[0].post(`${project}/events/tickets`, undefined, { token: account.token })
    ).body as { ticket: string };
    for (const api of apis) {
      expect((await api.request('HEAD', `${project}/events?ticket=${ticket}`, {})).status).toBe(
        200,
      );
    }
    expect(
      (await apis[0].request('HEAD', `${project}/events?ticket=${'x'.repeat(43)}`, {})).status,
    ).toBe(401);
    expect((await open(apps[1], `${project}/events?ticket=${ticket}`, {})).status).toBe(200);
    expect((await apis[0].request('HEAD', `${project}/events?ticket=${ticket}`, {})).status).toBe(
      401,
    );
  });

  it('ends the streams of a project that is deleted', async () => {
    const { project } = await createLayout(apis[0], token);
    const stream = await open(apps[1], `${project}/events`);
    expect((await apis[0].delete(project, { token })).status).toBe(204);
    await stream.ended;
    expect((await open(apps[1], `${project}/events`)).status).toBe(404);
  });
});

/** A revocation ends its streams as it commits: not at the next keep-alive (10 s here). */
describe('live changes of a revoked token', () => {
  let apps: NestFastifyApplication[];
  let apis: Api[];
  const password = 'correct horse battery staple';

  beforeAll(async () => {
    apps = await Promise.all([startTestApp(), startTestApp()]);
    apis = apps.map((app) => new Api(app));
  });
  afterAll(() => Promise.all(apps.map((app) => app.close())));

  /** A new account with a project and a second token, and a way to follow that project. */
  async function twoTokensOnOneProject(prefix: string) {
    const { token, username } = await apis[0].newAccount(prefix);
    const { project, contents } = await createLayout(apis[0], token);
    const second = (await apis[0].post('/accounts/auth/token', { username, password })).body
      .token as string;
    const follow = (app: NestFastifyApplication, bearerToken: string) =>
      openEventStream(`${baseUrl(app)}${project}/events`, {
        authorization: `Bearer ${bearerToken}`,
      });
    return { token, second, contents, follow };
  }

  it('ends them on every instance, by token and for the whole account, before any keep-alive', async () => {
    const { token, second, contents, follow } = await twoTokensOnOneProject('revoked');
    const revoked = [await follow(apps[0], token), await follow(apps[1], token)];
    const kept = await follow(apps[1], second);
    try {
      expect((await apis[1].delete('/accounts/auth/token', { token })).status).toBe(204);
      await Promise.all(revoked.map((stream) => stream.ended));
      // No keep-alive came before they ended: the revocation's notice ended them.
      expect(revoked.map((s) => [s.endedCleanly, s.comments.length])).toEqual([
        [true, 0],
        [true, 0],
      ]);
      const made = await apis[0].post(contents, { type: 'empty' }, { token: second });
      const revision = Number(made.headers['project-revision']);
      await kept.waitFor((events) => changeRevisions(events).at(-1) === revision, 'the write');

      // Signing out everywhere revokes the account's every token.
      expect((await apis[0].delete('/accounts/auth/tokens', { token: second })).status).toBe(204);
      await kept.ended;
      expect([kept.endedCleanly, kept.comments.length]).toEqual([true, 0]);
    } finally {
      for (const stream of [...revoked, kept]) stream.close();
    }
  });

  it('keeps the streams of the token a password change was made with, on every instance', async () => {
    const {
      token,
      second: other,
      contents,
      follow,
    } = await twoTokensOnOneProject('password-changed');
    const kept = [await follow(apps[0], token), await follow(apps[1], token)];
    const revoked = await follow(apps[1], other);
    const keptEnded = kept.map(() => false);
    kept.forEach((stream, i) => void stream.ended.then(() => (keptEnded[i] = true)));
    try {
      const changed = await apis[1].put(
        '/accounts/auth/me/password',
        { currentPassword: password, newPassword: 'a brand new horse battery' },
        { token },
      );
      expect(changed.status).toBe(204);
      await revoked.ended;
      expect([revoked.endedCleanly, revoked.comments.length]).toEqual([true, 0]);
      // The token in use still writes, and its streams, which heard the revocation before this
      // write's change (notices arrive in commit order), still follow.
      const made = await apis[0].post(contents, { type: 'empty' }, { token });
      expect(made.status).toBe(201);
      const revision = Number(made.headers['project-revision']);
      for (const stream of kept) {
        await stream.waitFor((events) => changeRevisions(events).at(-1) === revision, 'the write');
      }
      expect(keptEnded).toEqual([false, false]);
    } finally {
      for (const stream of [...kept, revoked]) stream.close();
    }
  });
});
