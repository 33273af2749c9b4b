import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { type EventStreamClient, openEventStream } from '../support/event-stream-client';
import { Api, createLayout, startTestApp } from '../support/test-app';

/**
 * CONTRACT.md, part three, "Members and roles": a change of membership or role takes effect at
 * once on every instance, also while the member reads its streams and writes.
 */
describe('a change of membership, on two instances', () => {
  let apps: NestFastifyApplication[];
  let apis: Api[];
  const streams: EventStreamClient[] = [];

  beforeAll(async () => {
    apps = await Promise.all([startTestApp(), startTestApp()]);
    apis = apps.map((app) => new Api(app));
  });
  afterEach(() => {
    for (const stream of streams.splice(0)) stream.close();
  });
  afterAll(() => Promise.all(apps.map((app) => app.close())));

  async function shared(role: 'editor' | 'viewer') {
    const owner = await apis[0].newAccount('owner');
    const member = await apis[0].newAccount('member');
    const paths = await createLayout(apis[0], owner.token);
    const added = await apis[0].post(
      `${paths.project}/members`,
      { username: member.username, role },
      { token: owner.token },
    );
    expect(added.status).toBe(201);
    const at = `${paths.project}/members/${member.id}`;
    return { owner, member, paths, at };
  }

  it('refuses a member made viewer from its next request on, on the other instance too, and lets it write again once editor', async () => {
    const { owner, member, paths, at } = await shared('editor');
    const write = (api: Api) =>
      api.post(paths.contents, { type: 'empty' }, { token: member.token });
    // Both instances have seen the member write, and keep its role.
    for (const api of apis) expect((await write(api)).status).toBe(201);
    expect((await apis[0].put(at, { role: 'viewer' }, { token: owner.token })).status).toBe(200);
    for (const api of apis) {
      const refused = await write(api);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ role: 'viewer', required: 'editor' });
    }
    expect((await apis[1].put(at, { role: 'editor' }, { token: owner.token })).status).toBe(200);
    for (const api of apis) expect((await write(api)).status).toBe(201);
  });

  it('ends a removed member’s streams on every instance, and answers its next request 404 everywhere', async () => {
    const { owner, member, paths, at } = await shared('viewer');
    const auth = { authorization: `Bearer ${member.token}` };
    const watching = await openEventStream(`${apis[1].baseUrl}${paths.project}/events`, {
      authorization: `Bearer ${owner.token}`,
    });
    streams.push(watching);
    const own = await Promise.all(
      apis.map((api) => openEventStream(`${api.baseUrl}${paths.project}/events`, auth)),
    );
    streams.push(...own);
    for (const stream of own) expect(stream.status).toBe(200);
    await watching.waitForPresence((present) => present.length === 2, 'the member present');
    for (const api of apis)
      expect((await api.get(paths.project, { token: member.token })).status).toBe(200);

    expect((await apis[0].delete(at, { token: owner.token })).status).toBe(204);
    // Its instances ended them before the removal answered; the client hears the end now.
    await Promise.all(own.map((stream) => stream.ended));
    expect(own.map((stream) => stream.endedCleanly)).toEqual([true, true]);
    for (const api of apis) {
      expect((await api.get(paths.project, { token: member.token })).status).toBe(404);
      expect((await api.get(`${paths.project}/presence`, { token: member.token })).status).toBe(
        404,
      );
    }
    await watching.waitForPresence((present) => present.length === 1, 'the member gone');
    const reopened = await openEventStream(`${apis[1].baseUrl}${paths.project}/events`, auth);
    streams.push(reopened);
    expect(reopened.status).toBe(404);
  });

  it('commits a write of a member removed meanwhile before the removal, or refuses it: never half of it', async () => {
    const { owner, member, paths, at } = await shared('editor');
    const batch = {
      operations: [
        { method: 'POST', path: paths.contents, body: { type: 'empty' } },
        {
          method: 'POST',
          path: paths.contents,
          body: { type: 'text', data: { html: '<p>x</p>' } },
        },
      ],
    };
    // Four writers, two on each instance, each a batch of two creates at a time, until the
    // removal has answered and three more.
    const writers = [0, 1, 2, 3].map(() => [] as number[]);
    let removed = false;
    const writing = writers.map(async (statuses, writer) => {
      for (let after = 0; after < 3; after += removed ? 1 : 0) {
        const answer = await apis[writer % 2].post(`${paths.project}/batch`, batch, {
          token: member.token,
        });
        statuses.push(answer.status);
      }
    });
    // Once some writes went through, the owner removes the member on one instance.
    while (!writers.flat().includes(200)) await new Promise((resolve) => setImmediate(resolve));
    expect((await apis[0].delete(at, { token: owner.token })).status).toBe(204);
    removed = true;
    await Promise.all(writing);

    const statuses = writers.flat();
    expect(new Set(statuses)).toEqual(new Set([200, 404]));
    const done = statuses.filter((status) => status === 200).length;
    const contents = (await apis[0].get(paths.contents, { token: owner.token })).body as unknown[];
    expect(contents).toHaveLength(2 * done);
    const revisions = (
      await apis[0].get(`${paths.project}/revisions?limit=100`, { token: owner.token })
    ).body as Array<{ operation: string; author: { _id: string } | null }>;
    expect(revisions.filter((entry) => entry.operation === 'batch')).toHaveLength(done);
    expect(
      revisions
        .filter((entry) => entry.operation === 'batch')
        .every((e) => e.author?._id === member.id),
    ).toBe(true);
    // Once refused, refused ever after.
    for (const mine of writers) {
      expect(mine.slice(mine.indexOf(404)).every((status) => status === 404)).toBe(true);
    }
  });
});
