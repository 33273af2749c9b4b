import { randomUUID } from 'node:crypto';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import {
  Api,
  createLayout,
  type LayoutPaths,
  type Response,
  startTestApp,
} from '../support/test-app';

/**
 * `Idempotency-Key` on every create (draft-ietf-httpapi-idempotency-key-header): an autosave
 * retried after a timeout never creates twice.
 */
describe('Idempotency-Key', () => {
  let first: NestFastifyApplication;
  let second: NestFastifyApplication;
  let api: Api;
  let other: Api;
  let token: string;
  let layout: LayoutPaths;

  beforeAll(async () => {
    // Two instances on one database, as behind a load balancer.
    [first, second] = await Promise.all([startTestApp(), startTestApp()]);
    api = new Api(first);
    other = new Api(second);
    ({ token } = await api.newAccount('idem'));
    layout = await createLayout(api, token, 4);
  });
  afterAll(() => Promise.all([first.close(), second.close()]));

  const keyed = (key: string) => ({ token, headers: { 'idempotency-key': `"${key}"` } });
  const contentsOf = async (path = layout.contents) =>
    ((await api.get(path, { token })).body as unknown[]).length;
  const revisionOf = async () => (await api.get(layout.project, { token })).body.revision as number;
  const answerOf = (response: Response) => ({
    status: response.status,
    body: response.text,
    etag: response.headers.etag,
    location: response.headers.location,
    revision: response.headers['project-revision'],
  });

  it('replays the first answer for the same key and request, and creates once', async () => {
    const key = randomUUID();
    const before = { contents: await contentsOf(), revision: await revisionOf() };
    const body = { type: 'text', data: { html: '<p>autosave</p>' } };
    const created = await api.post(layout.contents, body, keyed(key));
    expect(created.status).toBe(201);
    const retried = await api.post(layout.contents, body, keyed(key));
    expect(answerOf(retried)).toEqual(answerOf(created));
    // Quoted (the draft's form) or not, it is the same key.
    const bare = await api.post(layout.contents, body, {
      token,
      headers: { 'idempotency-key': key },
    });
    expect(answerOf(bare)).toEqual(answerOf(created));
    // The same body from another serialiser: other member order, other spacing.
    const reordered = await api.request('POST', layout.contents, {
      ...keyed(key),
      raw: '{ "data": { "html": "<p>autosave</p>" },\n  "type": "text" }',
      headers: { ...keyed(key).headers, 'content-type': 'application/json' },
    });
    expect(answerOf(reordered)).toEqual(answerOf(created));
    expect(await contentsOf()).toBe(before.contents + 1);
    expect(await revisionOf()).toBe(before.revision + 1);
  });

  it('answers 422 for the same key with another body or path, and changes nothing', async () => {
    const key = randomUUID();
    expect((await api.post(layout.contents, { type: 'empty' }, keyed(key))).status).toBe(201);
    const count = await contentsOf();
    const revision = await revisionOf();
    const otherBody = await api.post(layout.contents, { type: 'text' }, keyed(key));
    expect(otherBody.status).toBe(422);
    expect(otherBody.body).toMatchObject({ type: '/problems/idempotency-key-reused', status: 422 });
    const otherPath = await api.post(layout.columns, { size: 1 }, keyed(key));
    expect(otherPath.status).toBe(422);
    expect(await contentsOf()).toBe(count);
    expect(await revisionOf()).toBe(revision);
  });

  it('creates once when the same request arrives many times at once, on two instances', async () => {
    const key = randomUUID();
    const count = await contentsOf();
    const body = { type: 'text', data: { html: '<p>twice?</p>' } };
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        (i % 2 === 0 ? api : other).post(layout.contents, body, keyed(key)),
      ),
    );
    const distinct = new Set(answers.map((answer) => JSON.stringify(answerOf(answer))));
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 201));
    expect(distinct.size).toBe(1);
    expect(await contentsOf()).toBe(count + 1);
  });

  it('keeps no answer for a create that failed: its retry runs again', async () => {
    const key = randomUUID();
    // Size 4 taken of 12: a column of 9 does not fit.
    const refused = await api.post(layout.columns, { size: 9 }, keyed(key));
    expect(refused.status).toBe(409);
    const column = layout.column;
    expect((await api.put(column, { size: 3 }, { token })).status).toBe(200);
    const retried = await api.post(layout.columns, { size: 9 }, keyed(key));
    expect(retried.status).toBe(201);
    expect(answerOf(await api.post(layout.columns, { size: 9 }, keyed(key)))).toEqual(
      answerOf(retried),
    );
  });

  it('forgets a key after 24 hours', async () => {
    const key = randomUUID();
    const body = { type: 'empty' };
    expect((await api.post(layout.contents, body, keyed(key))).status).toBe(201);
    const count = await contentsOf();
    const db = new Client({ connectionString: process.env.LAYOUT_TEST_DATABASE_URL });
    await db.connect();
    try {
      await db.query(
        `UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = $1`,
        [key],
      );
    } finally {
      await db.end();
    }
    expect((await api.post(layout.contents, body, keyed(key))).status).toBe(201);
    expect(await contentsOf()).toBe(count + 1);
  });

  it('takes a key on a project create too, counting the project once', async () => {
    const key = randomUUID();
    const created = await api.post('/projects', { title: 'Retried' }, keyed(key));
    const retried = await other.post('/projects', { title: 'Retried' }, keyed(key));
    expect(created.status).toBe(201);
    expect(answerOf(retried)).toEqual(answerOf(created));
    const titles = [];
    for (let next: string | undefined = '/projects?limit=100'; next !== undefined;) {
      const page: Response = await api.get(next, { token });
      titles.push(...(page.body as { title: string }[]).map((project) => project.title));
      next = /<([^>]+)>; rel="next"/.exec(page.headers.link ?? '')?.[1];
    }
    expect(titles.filter((title) => title === 'Retried')).toHaveLength(1);
  });

  it('refuses a malformed key with 400, and another account never sees one', async () => {
    for (const value of ['', '"', '"a b"x', 'a b', `"${'k'.repeat(256)}"`]) {
      const response = await api.post(
        layout.contents,
        { type: 'empty' },
        {
          token,
          headers: { 'idempotency-key': value },
        },
      );
      expect([value, response.status]).toEqual([value, 400]);
      expect(response.body.detail).toMatch(
        /^The Idempotency-Key header must be a string of 1 to 255/,
      );
      expect(response.body.errors).toEqual([]);
    }
    // The same key from another account is that account's own.
    const key = randomUUID();
    expect((await api.post('/projects', { title: 'Mine' }, keyed(key))).status).toBe(201);
    const stranger = await api.newAccount('idem-other');
    const theirs = await api.post(
      '/projects',
      { title: 'Theirs' },
      {
        token: stranger.token,
        headers: { 'idempotency-key': `"${key}"` },
      },
    );
    expect(theirs.status).toBe(201);
    expect(theirs.body.title).toBe('Theirs');
  });

  it('lets a browser app send it (CORS)', async () => {
    const preflight = await api.request('OPTIONS', layout.contents, {
      headers: {
        origin: 'https://editor.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, idempotency-key',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-headers']?.toLowerCase()).toContain(
      'idempotency-key',
    );
  });
});
