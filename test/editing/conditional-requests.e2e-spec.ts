import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Api, createLayout, type LayoutPaths, startTestApp } from '../support/test-app';

/** CONTRACT.md, part two, "Conditional requests" (RFC 9110). */
describe('conditional requests', () => {
  let app: NestFastifyApplication;
  let api: Api;
  let token: string;

  beforeAll(async () => {
    app = await startTestApp();
    api = new Api(app);
    ({ token } = await api.newAccount('conditional'));
  });
  afterAll(() => app.close());

  const tagOf = async (path: string) => {
    const response = await api.get(path, { token });
    expect(response.status).toBe(200);
    return response.headers.etag as string;
  };

  /** Two blocks; the first has a row with two columns, each with a content. */
  async function tree() {
    const layout = await createLayout(api, token, 6);
    const content = (await api.post(layout.contents, { type: 'empty' }, { token })).headers
      .location as string;
    const sibling = (await api.post(layout.columns, { size: 6 }, { token })).headers
      .location as string;
    const siblingContent = (await api.post(`${sibling}/contents`, { type: 'empty' }, { token }))
      .headers.location as string;
    const otherBlock = (
      await api.post(`${layout.project}/blocks`, { description: 'b2' }, { token })
    ).headers.location as string;
    return { ...layout, content, sibling, siblingContent, otherBlock };
  }

  type Tree = Awaited<ReturnType<typeof tree>>;
  const everyPath = (t: Tree & LayoutPaths) => ({
    projects: '/projects',
    project: t.project,
    blocks: `${t.project}/blocks`,
    block: t.block,
    rows: `${t.block}/rows`,
    row: t.row,
    columns: t.columns,
    column: t.column,
    contents: t.contents,
    content: t.content,
    sibling: t.sibling,
    siblingContents: `${t.sibling}/contents`,
    siblingContent: t.siblingContent,
    otherBlock: t.otherBlock,
    otherRows: `${t.otherBlock}/rows`,
  });
  const tags = async (paths: Record<string, string>) =>
    Object.fromEntries(
      await Promise.all(Object.entries(paths).map(async ([k, p]) => [k, await tagOf(p)])),
    ) as Record<string, string>;
  const changed = (before: Record<string, string>, after: Record<string, string>) =>
    Object.keys(before)
      .filter((key) => before[key] !== after[key])
      .sort();

  it('gives every read a strong ETag, and HEAD the same headers without a body', async () => {
    const t = await tree();
    for (const [what, path] of Object.entries(everyPath(t))) {
      // Uncompressed, so that the lengths compare (fetch asks for br and gzip by default).
      const plain = { token, headers: { 'accept-encoding': 'identity' } };
      const get = await api.get(path, plain);
      expect([what, get.headers.etag]).toEqual([what, expect.stringMatching(/^"[^"]+"$/)]);
      const head = await api.request('HEAD', path, plain);
      expect([what, head.status, head.text]).toEqual([what, 200, '']);
      expect(head.headers.etag).toBe(get.headers.etag);
      expect(head.headers['content-length']).toBe(String(Buffer.byteLength(get.text)));
      // Compressed, HEAD announces the same encoding as GET sends.
      const packedHead = await api.request('HEAD', path, {
        token,
        headers: { 'accept-encoding': 'br' },
      });
      expect([what, packedHead.headers['content-encoding']]).toEqual([
        what,
        Buffer.byteLength(get.text) >= 1024 ? 'br' : undefined,
      ]);
    }
  });

  it('answers 304 with the tag and no body when If-None-Match names the current tag', async () => {
    const t = await tree();
    for (const path of Object.values(everyPath(t))) {
      const tag = await tagOf(path);
      for (const header of [tag, `W/${tag}`, `"x", ${tag}`, '*']) {
        const response = await api.get(path, { token, headers: { 'if-none-match': header } });
        expect([path, header, response.status, response.text]).toEqual([path, header, 304, '']);
        expect(response.headers.etag).toBe(tag);
        expect(response.headers['content-type']).toBeUndefined();
      }
      const head = await api.request('HEAD', path, { token, headers: { 'if-none-match': tag } });
      expect([path, head.status, head.headers.etag]).toEqual([path, 304, tag]);
      const stale = await api.get(path, { token, headers: { 'if-none-match': '"r0"' } });
      expect(stale.status).toBe(200);
      expect(stale.headers.etag).toBe(tag);
    }
  });

  it('still answers 404 to If-None-Match: * on what does not exist, or is not yours', async () => {
    const t = await tree();
    const stranger = await api.newAccount('stranger');
    for (const path of [t.project, t.content, `${t.contents}`]) {
      const response = await api.get(path, {
        token: stranger.token,
        headers: { 'if-none-match': '*' },
      });
      expect(response.status).toBe(404);
    }
  });

  it('changes the tags along the changed path only: no false conflicts between siblings', async () => {
    const t = await tree();
    const paths = everyPath(t);
    let before = await tags(paths);
    await api.put(t.content, { type: 'text', data: { html: '<p>new</p>' } }, { token });
    let after = await tags(paths);
    expect(changed(before, after)).toEqual(
      [
        'projects',
        'project',
        'blocks',
        'block',
        'rows',
        'row',
        'columns',
        'column',
        'contents',
        'content',
      ].sort(),
    );

    // The row's own member: the row, the lists above it; not its columns list.
    before = after;
    await api.put(t.row, { description: 'renamed' }, { token });
    after = await tags(paths);
    expect(changed(before, after)).toEqual(
      ['projects', 'project', 'blocks', 'block', 'rows', 'row'].sort(),
    );

    // Reordering a list changes the list, its parent and the moved node (so that of two
    // reorders sent with one tag only one goes through), not its other nodes.
    before = after;
    await api.put(t.sibling, { position: 0 }, { token });
    after = await tags(paths);
    expect(changed(before, after)).toEqual(
      ['projects', 'project', 'blocks', 'block', 'rows', 'row', 'columns', 'sibling'].sort(),
    );

    // A new node in the other block: nothing of the first block.
    before = after;
    await api.post(paths.otherRows, {}, { token });
    after = await tags(paths);
    expect(changed(before, after)).toEqual(
      ['projects', 'project', 'blocks', 'otherBlock', 'otherRows'].sort(),
    );

    // A write that changes nothing changes no tag.
    before = after;
    await api.put(t.column, { size: 6 }, { token });
    await api.put(t.project, {}, { token });
    expect(changed(before, await tags(paths))).toEqual([]);
  });

  it('answers a write with the new tag of what it returns, the one a read then gives', async () => {
    const t = await tree();
    const created = await api.post(t.contents, { type: 'empty' }, { token });
    expect(created.headers.etag).toBe(await tagOf(created.headers.location as string));
    const updated = await api.put(t.column, { size: 5 }, { token });
    expect(updated.headers.etag).toBe(await tagOf(t.column));
  });

  describe('If-Match', () => {
    it('lets a write through when it names the current tag, or *', async () => {
      const t = await tree();
      const tag = await tagOf(t.content);
      const response = await api.put(
        t.content,
        { type: 'text' },
        { token, headers: { 'if-match': tag } },
      );
      expect(response.status).toBe(200);
      expect(response.headers.etag).not.toBe(tag);
      const listed = await api.put(
        t.content,
        { type: 'empty' },
        { token, headers: { 'if-match': `"r0", ${response.headers.etag}` } },
      );
      expect(listed.status).toBe(200);
      expect(
        (await api.put(t.column, { size: 5 }, { token, headers: { 'if-match': '*' } })).status,
      ).toBe(200);
    });

    it.each([
      ['a stale tag', '"r1"'],
      ['a weak form of the current tag', 'weak'],
      ['something that is not a tag', 'anything'],
    ])('answers 412 to %s, with the current tag, and changes nothing', async (_, header) => {
      const t = await tree();
      const before = await api.get(t.project, { token });
      const current = await tagOf(t.column);
      const ifMatch = header === 'weak' ? `W/${current}` : header;
      for (const response of [
        await api.put(t.column, { size: 2 }, { token, headers: { 'if-match': ifMatch } }),
        await api.put(t.column, { contents: [] }, { token, headers: { 'if-match': ifMatch } }),
        await api.delete(t.column, { token, headers: { 'if-match': ifMatch } }),
      ]) {
        expect(response.status).toBe(412);
        expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(response.body).toMatchObject({ type: '/problems/precondition-failed', status: 412 });
        expect(response.headers.etag).toBe(current);
        expect(response.headers['project-revision']).toBeUndefined();
      }
      const after = await api.get(t.project, { token });
      expect(after.body).toEqual(before.body);
    });

    it('applies to every PUT and DELETE of the tree', async () => {
      const t = await tree();
      const stale = { token, headers: { 'if-match': '"r0"' } };
      const writes = [
        api.put(t.project, { title: 'x' }, stale),
        api.put(t.block, { description: 'x' }, stale),
        api.put(t.row, { description: 'x' }, stale),
        api.put(t.column, { size: 1 }, stale),
        api.put(t.content, { type: 'text' }, stale),
        api.delete(t.content, stale),
        api.delete(t.column, stale),
        api.delete(t.row, stale),
        api.delete(t.block, stale),
        api.delete(t.project, stale),
      ];
      expect((await Promise.all(writes)).map((response) => response.status)).toEqual(
        Array(10).fill(412),
      );
    });

    it('lets exactly one of concurrent writers with the same tag through', async () => {
      const t = await tree();
      const tag = await tagOf(t.content);
      const responses = await Promise.all(
        Array.from({ length: 12 }, (_, n) =>
          api.put(
            t.content,
            { type: 'text', data: { html: `<p>writer ${n}</p>` } },
            { token, headers: { 'if-match': tag } },
          ),
        ),
      );
      const statuses = responses.map((response) => response.status).sort();
      expect(statuses).toEqual([200, ...Array(11).fill(412)]);
      const winner = responses.find((response) => response.status === 200);
      expect((await api.get(t.content, { token })).body).toEqual(winner?.body);
      for (const loser of responses.filter((response) => response.status === 412)) {
        expect(loser.headers.etag).toBe(winner?.headers.etag);
      }
    });

    it('never refuses writers of different siblings, each with its own tag', async () => {
      const t = await tree();
      const secondRow = (await api.post(`${t.block}/rows`, {}, { token })).headers
        .location as string;
      // Disjoint subtrees: two contents of sibling columns, a sibling row, a sibling block.
      const writes: [string, (round: number) => object][] = [
        [t.content, (n) => ({ type: 'text', data: { html: `<p>${n}</p>` } })],
        [t.siblingContent, (n) => ({ type: 'text', data: { html: `<p>${n}</p>` } })],
        [secondRow, (n) => ({ description: `row ${n}` })],
        [t.otherBlock, (n) => ({ description: `block ${n}` })],
      ];
      for (let round = 0; round < 3; round++) {
        const taken = await Promise.all(writes.map(([path]) => tagOf(path)));
        const responses = await Promise.all(
          writes.map(([path, body], i) =>
            api.put(path, body(round), { token, headers: { 'if-match': taken[i] } }),
          ),
        );
        expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200]);
      }
    });
  });

  describe('If-None-Match on a write (RFC 9110 §13.1.2)', () => {
    /** What a refused write must leave as it was: the whole document, its revision and tags. */
    const snapshot = async (t: Tree & LayoutPaths) => {
      const project = await api.get(t.project, { token });
      return {
        revision: project.body.revision,
        document: project.body,
        tags: await tags(everyPath(t)),
      };
    };

    it.each([
      ['*', () => '*'],
      ['the current tag', (current: string) => current],
      ['a list naming the current tag', (current: string) => `"r0", ${current}`],
      ['the weak form of the current tag', (current: string) => `W/${current}`],
    ])(
      'answers 412 to %s on PUT and DELETE at every level, with the current tag, and changes nothing',
      async (_, header) => {
        const t = await tree();
        const before = await snapshot(t);
        const writes: [string, string, object | undefined][] = [
          ['PUT', t.project, { title: 'renamed' }],
          ['PUT', t.block, { description: 'changed' }],
          ['PUT', t.row, { description: 'changed' }],
          ['PUT', t.column, { size: 2 }],
          ['PUT', t.column, { contents: [] }],
          ['PUT', t.content, { type: 'text', data: { html: '<p>x</p>' } }],
          ['DELETE', t.content, undefined],
          ['DELETE', t.column, undefined],
          ['DELETE', t.row, undefined],
          ['DELETE', t.block, undefined],
          ['DELETE', t.project, undefined],
        ];
        for (const [method, path, body] of writes) {
          const current = before.tags[Object.entries(everyPath(t)).find(([, p]) => p === path)![0]];
          const response = await api.request(method, path, {
            token,
            body,
            headers: { 'if-none-match': header(current) },
          });
          expect([method, path, response.status]).toEqual([method, path, 412]);
          expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
          expect(response.body).toMatchObject({
            type: '/problems/precondition-failed',
            status: 412,
          });
          expect(response.headers.etag).toBe(current);
          expect(response.headers['project-revision']).toBeUndefined();
        }
        expect(await snapshot(t)).toEqual(before);
      },
    );

    it('lets a write through when If-None-Match names only other tags', async () => {
      const t = await tree();
      const before = await snapshot(t);
      const updated = await api.put(
        t.column,
        { size: 5 },
        { token, headers: { 'if-none-match': '"r0", W/"l0"' } },
      );
      expect(updated.status).toBe(200);
      expect(updated.headers['project-revision']).toBe(String(before.revision + 1));
      // Tags name revisions: one that the project has not reached is nobody's.
      const deleted = await api.delete(t.content, {
        token,
        headers: { 'if-none-match': `"r${before.revision + 100}"` },
      });
      expect(deleted.status).toBe(204);
      expect(deleted.headers['project-revision']).toBe(String(before.revision + 2));
    });

    it('is checked after If-Match: both must hold', async () => {
      const t = await tree();
      const current = await tagOf(t.row);
      const both = await api.put(
        t.row,
        { description: 'x' },
        { token, headers: { 'if-match': current, 'if-none-match': '*' } },
      );
      expect(both.status).toBe(412);
      expect(both.body.detail).toMatch(/If-None-Match/);
      const passing = await api.put(
        t.row,
        { description: 'x' },
        { token, headers: { 'if-match': current, 'if-none-match': '"r0"' } },
      );
      expect(passing.status).toBe(200);
    });

    it('still answers 404 on what does not exist, or is not yours', async () => {
      const t = await tree();
      const stranger = await api.newAccount('none-match-stranger');
      const response = await api.put(
        t.project,
        { title: 'mine now' },
        { token: stranger.token, headers: { 'if-none-match': '*' } },
      );
      expect(response.status).toBe(404);
    });
  });

  it('lets a browser on another origin send the conditions and read the tags', async () => {
    const preflight = await api.request('OPTIONS', '/projects', {
      headers: {
        origin: 'https://editor.example.com',
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'authorization, content-type, if-match, if-none-match',
      },
    });
    expect(preflight.status).toBeLessThan(300);
    const allowed = (preflight.headers['access-control-allow-headers'] ?? '').toLowerCase();
    for (const header of ['if-match', 'if-none-match', 'authorization'])
      expect(allowed).toContain(header);
    const t = await tree();
    const read = await api.get(t.project, {
      token,
      headers: { origin: 'https://editor.example.com' },
    });
    const exposed = (read.headers['access-control-expose-headers'] ?? '')
      .toLowerCase()
      .split(/,\s*/);
    expect(exposed).toEqual(
      expect.arrayContaining([
        'etag',
        'location',
        'project-revision',
        'retry-after',
        'ratelimit',
        'ratelimit-policy',
      ]),
    );
  });
});

describe('conditional requests with REQUIRE_IF_MATCH=true', () => {
  let app: NestFastifyApplication;
  let api: Api;
  let token: string;

  beforeAll(async () => {
    app = await startTestApp({ REQUIRE_IF_MATCH: 'true' });
    api = new Api(app);
    ({ token } = await api.newAccount('require'));
  });
  afterAll(() => app.close());

  it('answers 428 to a PUT or DELETE without If-Match, and lets creates and reads through', async () => {
    const layout = await createLayout(api, token);
    for (const response of [
      await api.put(layout.column, { size: 3 }, { token }),
      await api.delete(layout.column, { token }),
      await api.put(layout.project, { title: 'x' }, { token }),
      await api.delete(layout.project, { token }),
    ]) {
      expect(response.status).toBe(428);
      expect(response.body).toMatchObject({ type: '/problems/precondition-required', status: 428 });
    }
    const tag = (await api.get(layout.column, { token })).headers.etag as string;
    expect(
      (await api.put(layout.column, { size: 3 }, { token, headers: { 'if-match': tag } })).status,
    ).toBe(200);
    expect((await api.post(layout.contents, { type: 'empty' }, { token })).status).toBe(201);
  });

  it('answers 428 to a move or a duplicate without If-Match, at every level, and takes them with it', async () => {
    const layout = await createLayout(api, token);
    const content = (await api.post(layout.contents, { type: 'empty' }, { token })).headers
      .location as string;
    const revision = (await api.get(layout.project, { token })).body.revision as number;
    const operations = [
      [`${layout.block}/move`, { position: 0 }],
      [`${layout.row}/move`, {}],
      [`${layout.column}/move`, {}],
      [`${content}/move`, {}],
      [`${layout.project}/duplicate`, {}],
      [`${layout.block}/duplicate`, {}],
      [`${layout.row}/duplicate`, {}],
      [`${layout.column}/duplicate`, { rowId: layout.row.split('/').pop() }],
      [`${content}/duplicate`, {}],
    ] as const;
    for (const [path, body] of operations) {
      const refused = await api.post(path, body, { token });
      expect([path, refused.status, refused.body.type]).toEqual([
        path,
        428,
        '/problems/precondition-required',
      ]);
    }
    expect((await api.get(layout.project, { token })).body.revision).toBe(revision);
    const tag = (await api.get(content, { token })).headers.etag as string;
    const moved = await api.post(`${content}/move`, {}, { token, headers: { 'if-match': tag } });
    expect(moved.status).toBe(200);
    const copied = await api.post(
      `${content}/duplicate`,
      {},
      { token, headers: { 'if-match': '*' } },
    );
    expect(copied.status).toBe(201);
  });

  it('answers 428 to a restore without If-Match, changing nothing, and restores with it', async () => {
    const layout = await createLayout(api, token);
    const before = await api.get(layout.project, { token });
    const past = before.body.revision as number;
    expect(
      (await api.put(layout.column, { size: 5 }, { token, headers: { 'if-match': '*' } })).status,
    ).toBe(200);
    const current = await api.get(layout.project, { token });
    const restore = `${layout.project}/revisions/${past}/restore`;

    const refused = await api.post(restore, {}, { token });
    expect(refused.status).toBe(428);
    expect(refused.body).toMatchObject({ type: '/problems/precondition-required', status: 428 });
    expect((await api.get(layout.project, { token })).body).toEqual(current.body);

    const restored = await api.post(
      restore,
      {},
      {
        token,
        headers: { 'if-match': current.headers.etag as string },
      },
    );
    expect(restored.status).toBe(200);
    const after = await api.get(layout.project, { token });
    expect(after.body.revision).toBe((current.body.revision as number) + 1);
    expect(after.body.blocks).toEqual(before.body.blocks);
  });
});
