import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Api, type Response, startTestApp } from './support/test-app';

const NEXT = /^<(\/projects\?limit=(\d+)&cursor=([A-Za-z0-9_-]+))>; rel="next"$/;

/** The URI of the next page named by a response's `Link`, or undefined on the last page. */
function nextOf(response: Response): string | undefined {
  const link = response.headers.link;
  if (link === undefined) return undefined;
  const match = NEXT.exec(link);
  if (!match) throw new Error(`not a next link: ${link}`);
  return match[1];
}

const ids = (response: Response): string[] =>
  (response.body as { _id: string }[]).map((p) => p._id);

describe('GET /projects, a page at a time', () => {
  let app: NestFastifyApplication;
  let api: Api;
  let token: string;
  /** The account's five projects, in the list's order. */
  let all: string[];

  beforeAll(async () => {
    app = await startTestApp();
    api = new Api(app);
    ({ token } = await api.newAccount('pager'));
    for (let index = 0; index < 5; index += 1) {
      const created = await api.post('/projects', { title: `Project ${index}` }, { token });
      expect(created.status).toBe(201);
    }
    const whole = await api.get('/projects?limit=100', { token });
    all = ids(whole);
    expect(all).toHaveLength(5);
  });
  afterAll(() => app.close());

  /** Every page from `first` on: the ids of each and the URIs that were read. */
  async function walk(first: string, as = token): Promise<{ pages: string[][]; uris: string[] }> {
    const pages: string[][] = [];
    const uris: string[] = [];
    for (let uri: string | undefined = first; uri !== undefined;) {
      uris.push(uri);
      const page = await api.get(uri, { token: as });
      expect(page.status).toBe(200);
      pages.push(ids(page));
      uri = nextOf(page);
      if (pages.length > 20) throw new Error('the walk does not end');
    }
    return { pages, uris };
  }

  it('answers the whole list, without Link, when the query names no limit', async () => {
    const list = await api.get('/projects', { token });
    expect(list.status).toBe(200);
    expect(ids(list)).toEqual(all);
    expect(list.body[0]).toEqual({
      _id: all[0],
      title: expect.any(String),
      revision: 1,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      role: 'owner',
    });
    expect(list.headers.link).toBeUndefined();
    expect(list.headers.etag).toMatch(/^"p[0-9a-f]{32}"$/);
  });

  it('answers every project of an account that has more than a page holds, without Link', async () => {
    const { token: many } = await api.newAccount('pager-many');
    const created: string[] = [];
    for (let index = 0; index < 105; index += 1) {
      const answer = await api.post('/projects', { title: `Many ${index}` }, { token: many });
      created.push(answer.body._id as string);
    }
    const list = await api.get('/projects', { token: many });
    expect(list.status).toBe(200);
    expect(ids(list)).toEqual(created);
    expect(list.headers.link).toBeUndefined();
    // Asked for a page, it pages.
    const page = await api.get('/projects?limit=100', { token: many });
    expect(ids(page)).toEqual(created.slice(0, 100));
    expect(page.headers.link).toMatch(NEXT);
  });

  it('walks pages of 2 over every project once, in order, with rel="next" but on the last', async () => {
    const { pages, uris } = await walk('/projects?limit=2');
    expect(pages).toEqual([all.slice(0, 2), all.slice(2, 4), all.slice(4)]);
    expect(uris.slice(1).every((uri) => uri.startsWith('/projects?limit=2&cursor='))).toBe(true);
    // A page that ends exactly at the end has no next page either.
    const { pages: exact } = await walk('/projects?limit=5');
    expect(exact).toEqual([all]);
    const { pages: single } = await walk('/projects?limit=1');
    expect(single.flat()).toEqual(all);
    expect(single).toHaveLength(5);
  });

  it('answers the Link on HEAD too', async () => {
    const head = await api.request('HEAD', '/projects?limit=2', { token });
    expect(head.status).toBe(200);
    expect(nextOf(head)).toMatch(/^\/projects\?limit=2&cursor=/);
  });

  it.each(['0', '101', 'x', '-1', '2.5', '', '1e1'])('refuses limit=%j', async (limit) => {
    const answer = await api.get(`/projects?limit=${limit}`, { token });
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(answer.body).toMatchObject({
      type: '/problems/validation',
      status: 400,
      errors: [{ pointer: '/limit', detail: 'must be an integer from 1 to 100' }],
    });
  });

  it('refuses a repeated limit and accepts the bounds', async () => {
    expect((await api.get('/projects?limit=2&limit=3', { token })).status).toBe(400);
    expect((await api.get('/projects?limit=1', { token })).status).toBe(200);
    expect((await api.get('/projects?limit=100', { token })).status).toBe(200);
  });

  it('refuses a malformed or changed cursor at /cursor', async () => {
    const first = await api.get('/projects?limit=2', { token });
    const cursor = NEXT.exec(first.headers.link ?? '')?.[3] as string;
    const flipped = cursor.slice(0, 10) + (cursor[10] === 'A' ? 'B' : 'A') + cursor.slice(11);
    const reencoded = (payload: object) =>
      Buffer.from(JSON.stringify(payload)).toString('base64url');
    const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as {
      t: string;
      i: string;
      k: string;
    };
    for (const bad of [
      'not a cursor!',
      '%00',
      'abc',
      flipped,
      `${cursor}A`,
      reencoded({ ...decoded, t: '2000-01-01T00:00:00.000000Z' }),
      reencoded({ ...decoded, t: '2026-02-31T00:00:00.000000Z' }),
      reencoded({ ...decoded, i: 'x' }),
      reencoded([decoded.t, decoded.i]),
      'A'.repeat(600),
    ]) {
      const answer = await api.get(`/projects?limit=2&cursor=${encodeURIComponent(bad)}`, {
        token,
      });
      expect({ bad, status: answer.status }).toEqual({ bad, status: 400 });
      expect(answer.body).toMatchObject({
        type: '/problems/validation',
        errors: [{ pointer: '/cursor', detail: expect.any(String) }],
      });
    }
  });

  it('refuses unknown query parameters, naming them', async () => {
    for (const [query, name] of [
      ['page=2', '/page'],
      ['limit=2&offset=4', '/offset'],
      ['Limit=2', '/Limit'],
      ['cursor=&sort=title', '/sort'],
    ]) {
      const answer = await api.get(`/projects?${query}`, { token });
      expect({ query, status: answer.status }).toEqual({ query, status: 400 });
      expect(answer.body).toMatchObject({
        type: '/problems/validation',
        errors: expect.arrayContaining([{ pointer: name, detail: 'is not a known member' }]),
      });
    }
  });

  it('neither repeats nor skips a project when others are created or deleted mid-walk', async () => {
    const { token: owner } = await api.newAccount('pager-live');
    const before: string[] = [];
    for (let index = 0; index < 5; index += 1) {
      before.push((await api.post('/projects', { title: `P${index}` }, { token: owner })).body._id);
    }
    const order = ids(await api.get('/projects', { token: owner }));
    const first = await api.get('/projects?limit=2', { token: owner });
    const seen = ids(first);
    // Meanwhile: a new project, and one of the first page gone.
    const added = (await api.post('/projects', { title: 'New' }, { token: owner })).body._id;
    expect((await api.delete(`/projects/${seen[0]}`, { token: owner })).status).toBe(204);
    const { pages } = await walk(nextOf(first) as string, owner);
    const walked = [...seen, ...pages.flat()];
    expect(new Set(walked).size).toBe(walked.length);
    expect(walked.filter((id) => id !== added)).toEqual(order);
    expect(walked).toContain(added);
  });

  it('keeps every account to its own projects and refuses its cursors to another', async () => {
    const other = await api.newAccount('pager-other');
    const theirs = await api.get('/projects?limit=2', { token: other.token });
    expect(theirs.status).toBe(200);
    expect(theirs.body).toEqual([]);
    expect(theirs.headers.link).toBeUndefined();
    const mine = await api.get('/projects?limit=2', { token });
    const foreign = await api.get(nextOf(mine) as string, { token: other.token });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors).toEqual([{ pointer: '/cursor', detail: expect.any(String) }]);
  });

  it('tags each page: 304 while it is unchanged, a new tag when a project on it changes', async () => {
    const { token: owner } = await api.newAccount('pager-tags');
    for (let index = 0; index < 4; index += 1) {
      await api.post('/projects', { title: `T${index}` }, { token: owner });
    }
    const first = await api.get('/projects?limit=2', { token: owner });
    const second = await api.get(nextOf(first) as string, { token: owner });
    const [tag1, tag2] = [first.headers.etag as string, second.headers.etag as string];
    expect(tag1).toMatch(/^"p[0-9a-f]{32}"$/);
    expect(tag2).not.toBe(tag1);
    // The whole list and a page of another size are other representations.
    const whole = await api.get('/projects', { token: owner });
    expect([tag1, tag2]).not.toContain(whole.headers.etag);

    const revalidate = (uri: string, tag: string) =>
      api.get(uri, { token: owner, headers: { 'if-none-match': tag } });
    const notModified = await revalidate('/projects?limit=2', tag1);
    expect(notModified.status).toBe(304);
    expect(notModified.text).toBe('');
    expect(notModified.headers.etag).toBe(tag1);
    expect((await revalidate(nextOf(first) as string, tag2)).status).toBe(304);

    // A project of the second page changes: only that page's tag does.
    const renamed = second.body[0]._id as string;
    expect(
      (await api.put(`/projects/${renamed}`, { title: 'Renamed' }, { token: owner })).status,
    ).toBe(200);
    expect((await revalidate('/projects?limit=2', tag1)).status).toBe(304);
    const changed = await revalidate(nextOf(first) as string, tag2);
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(tag2);
    expect(changed.body[0]).toMatchObject({ _id: renamed, title: 'Renamed', revision: 2 });

    // A project created after the last one gives the last page a next page: a new tag.
    const last = await revalidate(nextOf(first) as string, changed.headers.etag as string);
    expect(last.status).toBe(304);
    await api.post('/projects', { title: 'T4' }, { token: owner });
    const grown = await revalidate(nextOf(first) as string, changed.headers.etag as string);
    expect(grown.status).toBe(200);
    expect(nextOf(grown)).toBeDefined();
  });

  it('exposes Link to browsers on another origin', async () => {
    const answer = await api.get('/projects?limit=2', {
      token,
      headers: { origin: 'https://editor.example.com' },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['access-control-allow-origin']).toBe('https://editor.example.com');
    const exposed = String(answer.headers['access-control-expose-headers'])
      .split(',')
      .map((name) => name.trim().toLowerCase());
    expect(exposed).toContain('link');
    expect(answer.headers.link).toMatch(NEXT);
  });

  it('is documented: limit, cursor, the Link of a 200 and the 400', async () => {
    const document = (await api.get('/docs/openapi.json')).body;
    const operation = document.paths['/projects'].get;
    const query = Object.fromEntries(
      operation.parameters
        .filter((parameter: { in: string }) => parameter.in === 'query')
        .map((parameter: { name: string }) => [parameter.name, parameter]),
    );
    expect(Object.keys(query).sort()).toEqual(['cursor', 'limit']);
    expect(query.limit).toMatchObject({
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: 100 },
    });
    expect(query.cursor).toMatchObject({ required: false, schema: { type: 'string' } });
    expect(operation.responses['200'].headers).toMatchObject({
      ETag: { required: true },
      Link: { required: false },
    });
    expect(operation.responses['304']).toBeDefined();
    expect(operation.responses['400'].content['application/problem+json']).toBeDefined();
  });
});
