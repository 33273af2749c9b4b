import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { type BuiltTree, buildTree } from '../support/tree-builder';
import { checkTreeAccounts } from '../support/tree-invariants';
import { Api, createLayout, type Response, startTestApp } from '../support/test-app';

/** CONTRACT.md, part two, "History and undo". */
describe('history and undo', () => {
  let app: NestFastifyApplication;
  let api: Api;
  let token: string;
  let db: Client;

  beforeAll(async () => {
    app = await startTestApp();
    api = new Api(app);
    ({ token } = await api.newAccount('history'));
    db = new Client({ connectionString: process.env.LAYOUT_TEST_DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await app.close();
  });

  const ok = (response: Response, status = 200) => {
    if (response.status !== status) {
      throw new Error(`expected ${status}, got ${response.status}: ${response.text}`);
    }
    return response;
  };

  /**
   * A client that records the project after each of its writes: the text of its read, by the
   * revision the write answered.
   */
  async function recordingWrites(project: string, writes: (() => Promise<Response>)[]) {
    const recorded = new Map<number, string>();
    const first = ok(await api.get(project, { token }));
    recorded.set(first.body.revision as number, first.text);
    for (const write of writes) {
      const answer = await write();
      if (answer.status >= 300) throw new Error(`a write failed: ${answer.status} ${answer.text}`);
      const read = ok(await api.get(project, { token }));
      expect(read.body.revision).toBe(Number(answer.headers['project-revision']));
      recorded.set(read.body.revision as number, read.text);
    }
    return recorded;
  }

  it('keeps every revision: each past state is the project exactly as it was read then', async () => {
    const paths = await createLayout(api, token);
    const { project, block, row, columns, contents } = paths;
    const created: Record<string, string> = {};
    const keep = (name: string) => (response: Response) => {
      created[name] = response.headers.location as string;
      return response;
    };
    const recorded = await recordingWrites(project, [
      () =>
        api
          .post(contents, { type: 'text', data: { html: '<p>one</p>' } }, { token })
          .then(keep('one')),
      () => api.post(contents, { type: 'quote' }, { token }).then(keep('two')),
      () => api.put(created.one, { type: 'text', data: { html: '<p>uno</p>' } }, { token }),
      () =>
        api.post(columns, { size: 2, contents: [{ type: 'empty' }] }, { token }).then(keep('col')),
      () =>
        api
          .post(`${created.one}/move`, { columnId: created.col.split('/').pop() }, { token })
          .then(keep('one')),
      () => api.post(`${created.col}/duplicate`, {}, { token }).then(keep('colCopy')),
      () =>
        api.put(
          block,
          { description: 'Changed', style: { backgroundColor: '#abcdef' } },
          { token },
        ),
      () =>
        api.post(`${project}/blocks`, { description: 'Second' }, { token }).then(keep('block2')),
      () => api.post(`${row}/move`, { blockId: created.block2.split('/').pop() }, { token }),
      () => api.put(project, { title: 'Retitled' }, { token }),
      () => api.post(`${created.block2}/duplicate`, { position: 0 }, { token }),
      () => api.delete(created.colCopy.replace(`${block}/`, `${created.block2}/`), { token }),
      () => api.delete(block, { token }),
    ]);
    expect(recorded.size).toBe(14);

    for (const [revision, text] of recorded) {
      const past = ok(await api.get(`${project}/revisions/${revision}`, { token }));
      // Ids, order, values, createdAt, updatedAt, title and revision: the very bytes.
      expect({ revision, text: past.text }).toEqual({ revision, text });
      expect(past.headers.etag).toBe(`"r${revision}"`);
    }

    const listed = ok(await api.get(`${project}/revisions?limit=100`, { token })).body as {
      revision: number;
      operation: string;
      path: string;
      createdAt: string;
    }[];
    const newest = Math.max(...recorded.keys());
    expect(listed.map((r) => r.revision)).toEqual(
      Array.from({ length: newest }, (_, i) => newest - i),
    );
    expect(listed.map((r) => r.operation).reverse()).toEqual([
      'project.create',
      'block.create',
      'row.create',
      'column.create',
      'content.create',
      'content.create',
      'content.update',
      'column.create',
      'content.move',
      'column.duplicate',
      'block.update',
      'block.create',
      'row.move',
      'project.update',
      'block.duplicate',
      'column.delete',
      'block.delete',
    ]);
    expect(listed[0].path).toBe(block);
    expect(listed.find((r) => r.operation === 'content.update')?.path).toBe(
      `${contents}/${created.one.split('/').pop()}`,
    );
    expect(listed.at(-2)?.path).toBe(`${project}/blocks`);
    // A create names the list it added to, a project's too.
    expect(listed.at(-1)?.path).toBe('/projects');
    for (const entry of listed) {
      expect(new Date(entry.createdAt).toISOString()).toBe(entry.createdAt);
    }
    // A copy's history starts with the duplicate, naming the project the request addressed.
    const copy = ok(await api.post(`${project}/duplicate`, {}, { token }), 201).body as {
      _id: string;
    };
    const copied = ok(await api.get(`/projects/${copy._id}/revisions`, { token })).body;
    expect(copied).toEqual([
      expect.objectContaining({ revision: 1, operation: 'project.duplicate', path: project }),
    ]);
  });

  it('restores a past state as a new revision, ids and createdAt included', async () => {
    const tree = await buildTree(api, token, { blocks: 2, rows: 2, columns: [6, 6], contents: 2 });
    const before = ok(await api.get(tree.project, { token }));
    const at = before.body.revision as number;
    ok(await api.delete(tree.blocks[0], { token }), 204);
    ok(await api.post(`${tree.rows[1][0]}/move`, { position: 0 }, { token }));
    ok(await api.put(tree.contents[1][1][1][0], { type: 'quote' }, { token }));
    ok(await api.put(tree.project, { title: 'Other' }, { token }));
    const current = ok(await api.get(tree.project, { token }));

    const restored = ok(
      await api.post(`${tree.project}/revisions/${at}/restore`, undefined, {
        token,
        headers: { 'if-match': current.headers.etag as string },
      }),
    );
    const revision = (current.body.revision as number) + 1;
    expect(restored.headers['project-revision']).toBe(String(revision));
    expect(restored.headers.etag).toBe(`"r${revision}"`);
    const expected = { ...before.body, revision, updatedAt: restored.body.updatedAt };
    expect(restored.body).toEqual(expected);
    expect(restored.body.updatedAt > before.body.updatedAt).toBe(true);
    // What the project reads now, and what the history holds for the restore, are that state.
    const read = ok(await api.get(tree.project, { token }));
    expect(read.text).toBe(restored.text);
    expect(ok(await api.get(`${tree.project}/revisions/${revision}`, { token })).text).toBe(
      restored.text,
    );
    const [entry] = ok(await api.get(`${tree.project}/revisions?limit=1`, { token })).body;
    expect(entry).toMatchObject({ revision, operation: 'project.restore', path: tree.project });
    // Every node answers at its old path again, and the counters follow the restored tree.
    ok(await api.get(tree.contents[0][1][1][1], { token }));
    ok(await api.post(`${tree.rows[0][0]}/columns`, { size: 1 }, { token }), 409);
    const blocks = ok(await api.get(`${tree.project}/blocks`, { token })).body as unknown[];
    expect(blocks).toHaveLength(2);
  });

  it('undoes with If-Match: the revision before, unless someone changed the project meanwhile', async () => {
    const { project, contents } = await createLayout(api, token);
    const made = ok(
      await api.post(contents, { type: 'text', data: { html: '<p>a</p>' } }, { token }),
      201,
    );
    const edited = ok(
      await api.put(
        made.headers.location as string,
        { type: 'text', data: { html: '<p>b</p>' } },
        { token },
      ),
    );
    const revision = Number(edited.headers['project-revision']);
    const tag = `"r${revision}"`;

    // A colleague's change comes first: the undo of our edit is refused, and changes nothing.
    const theirs = ok(await api.post(contents, { type: 'quote' }, { token }), 201);
    const refused = await api.post(`${project}/revisions/${revision - 1}/restore`, undefined, {
      token,
      headers: { 'if-match': tag },
    });
    expect(refused.status).toBe(412);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(ok(await api.get(project, { token })).body.revision).toBe(revision + 1);

    const current = `"r${revision + 1}"`;
    const undone = ok(
      await api.post(`${project}/revisions/${revision}/restore`, undefined, {
        token,
        headers: { 'if-match': current },
      }),
    );
    expect(undone.body.revision).toBe(revision + 2);
    ok(await api.get(theirs.headers.location as string, { token }), 404);
    const content = ok(await api.get(made.headers.location as string, { token }));
    expect(content.body.data).toEqual({ html: '<p>b</p>' });
  });

  it('undoes moves to the top, whose sort keys went to zero and below', async () => {
    const tree = await buildTree(api, token, { blocks: 3, rows: 1, columns: [12], contents: 3 });
    const [a, , c] = tree.blocks;
    const [x, , z] = tree.contents[0][0][0];
    // Each move to the top takes a key one gap below the first: 0, then negative ones. Undone,
    // a node goes back to a key that another node's old key mirrors.
    const moves = [c, a, c, z, x, z].map(
      (node) => () => api.post(`${node}/move`, { position: 0 }, { token }),
    );
    const recorded = await recordingWrites(tree.project, moves);
    const revisions = [...recorded.keys()].sort((m, n) => m - n);
    // Undo, step by step, back to where the moves began.
    for (const at of revisions.slice(0, -1).reverse()) {
      const current = ok(await api.get(tree.project, { token })).headers.etag as string;
      const undone = ok(
        await api.post(`${tree.project}/revisions/${at}/restore`, undefined, {
          token,
          headers: { 'if-match': current },
        }),
      );
      const { revision: _restored, updatedAt: _at, ...restoredTree } = undone.body;
      const {
        revision: _was,
        updatedAt: _then,
        ...pastTree
      } = JSON.parse(recorded.get(at) as string);
      expect(restoredTree).toEqual(pastTree);
    }
  });

  it('times each revision when it takes the lock, so that times follow revisions', async () => {
    const { project } = await createLayout(api, token);
    const projectId = project.split('/').pop() as string;
    // Another writer holds the project's lock while the request's transaction begins behind it,
    // then commits a revision of its own: the request's revision comes after it, in time too.
    const writer = new Client({ connectionString: process.env.LAYOUT_TEST_DATABASE_URL });
    await writer.connect();
    try {
      await writer.query('BEGIN');
      await writer.query('SELECT 1 FROM projects WHERE id = $1 FOR NO KEY UPDATE', [projectId]);
      const retitled = api.put(project, { title: 'Later' }, { token });
      const waiting = async () =>
        Number(
          (
            await db.query<{ n: string }>(
              `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database()
                 AND wait_event_type = 'Lock' AND query LIKE '%FOR NO KEY UPDATE%'`,
            )
          ).rows[0].n,
        );
      for (let tries = 0; (await waiting()) === 0; tries++) {
        if (tries === 500) throw new Error('the write never waited for the lock');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await writer.query(
        `WITH p AS (UPDATE projects SET revision = revision + 1, updated_at = clock_timestamp()
           WHERE id = $1 RETURNING id, revision, updated_at, title)
         INSERT INTO revisions (project_id, revision, created_at, operation, path, title)
         SELECT id, revision, updated_at, 'project.update', '/projects/' || id, title FROM p`,
        [projectId],
      );
      await writer.query('COMMIT');
      expect(ok(await retitled).headers['project-revision']).toBe('6');
    } finally {
      await writer.end();
    }
    const [later, earlier] = ok(await api.get(`${project}/revisions?limit=2`, { token })).body as {
      revision: number;
      createdAt: string;
    }[];
    expect([later.revision, earlier.revision]).toEqual([6, 5]);
    expect(later.createdAt >= earlier.createdAt).toBe(true);
    expect(ok(await api.get(project, { token })).body.updatedAt).toBe(later.createdAt);
  });

  it('changes only the tags of what a restore changed', async () => {
    const tree = await buildTree(api, token, { blocks: 2, rows: 1, columns: [6, 6], contents: 1 });
    const at = ok(await api.get(tree.project, { token })).body.revision as number;
    const untouched = ok(await api.get(tree.blocks[1], { token })).headers.etag;
    const edited = tree.contents[0][0][0][0];
    ok(await api.put(edited, { type: 'quote' }, { token }));
    const restored = ok(
      await api.post(`${tree.project}/revisions/${at}/restore`, undefined, { token }),
    );
    expect(ok(await api.get(tree.blocks[1], { token })).headers.etag).toBe(untouched);
    expect(ok(await api.get(edited, { token })).headers.etag).toBe(`"r${restored.body.revision}"`);
    expect(ok(await api.get(tree.blocks[0], { token })).headers.etag).toBe(
      `"r${restored.body.revision}"`,
    );
  });

  it('leaves the rows a restore does not change unwritten, not even locked', async () => {
    // A lock writes the row's page: an undo that locked every node wrote to all of them. A row
    // keeps its place (ctid) and its last writer or locker (xmax) unless a statement meets it.
    const tree = await buildTree(api, token, { blocks: 2, rows: 1, columns: [6, 6], contents: 3 });
    const at = ok(await api.get(tree.project, { token })).body.revision as number;
    ok(await api.put(tree.project, { title: 'Renamed' }, { token }));
    const nodes = async () =>
      (
        await db.query<{ level: string; id: string; at: string }>(
          `SELECT level, id, ctid::text || ' ' || xmax::text AS at
           FROM (SELECT 'block' AS level, id, ctid, xmax FROM blocks WHERE project_id = $1
                 UNION ALL SELECT 'row', id, ctid, xmax FROM rows WHERE project_id = $1
                 UNION ALL SELECT 'column', id, ctid, xmax FROM columns WHERE project_id = $1
                 UNION ALL SELECT 'content', id, ctid, xmax FROM contents WHERE project_id = $1) n
           ORDER BY level, id`,
          [tree.projectId],
        )
      ).rows;
    const before = await nodes();
    expect(before).toHaveLength(2 + 2 + 4 + 12);
    ok(await api.post(`${tree.project}/revisions/${at}/restore`, undefined, { token }));
    expect(await nodes()).toEqual(before);
  });

  it('keeps the tags of an empty column and its ancestors when a restore leaves them as they were', async () => {
    const tree = await buildTree(api, token, { blocks: 1, rows: 1, columns: [3], contents: 0 });
    const column = tree.columns[0][0][0];
    const columns = column.slice(0, column.lastIndexOf('/'));
    const tagsOf = async () =>
      Promise.all(
        [tree.blocks[0], tree.rows[0][0], column, columns, `${tree.project}/blocks`].map(
          async (path) => ok(await api.get(path, { token })).headers.etag,
        ),
      );
    const at = ok(await api.get(tree.project, { token })).body.revision as number;
    const before = await tagsOf();
    ok(await api.put(tree.project, { title: 'Renamed' }, { token }));
    ok(await api.post(`${tree.project}/revisions/${at}/restore`, undefined, { token }));
    expect(await tagsOf()).toEqual(before);
    // What the limits count (children and their bytes) is what the tree holds.
    expect((await checkTreeAccounts(tree.projectId)).mismatches).toEqual([]);
  });

  /** Reads every node and list of `tree`, with its tag and its bytes, in one order. */
  function readingEveryTag(tree: BuiltTree) {
    const rows = tree.rows.flat();
    const columns = tree.columns.flat(2);
    const paths = [
      ...tree.blocks,
      ...rows,
      ...columns,
      ...tree.contents.flat(3),
      `${tree.project}/blocks`,
      ...tree.blocks.map((block) => `${block}/rows`),
      ...rows.map((row) => `${row}/columns`),
      ...columns.map((column) => `${column}/contents`),
    ];
    return async () =>
      Promise.all(
        paths.map(async (path) => {
          const answer = await api.get(path, { token });
          if (answer.status === 404) return { path, etag: undefined, text: 'gone' };
          return { path, etag: ok(answer).headers.etag as string, text: answer.text };
        }),
      );
  }

  it('changes the tag of no node or list that a restore leaves as it was, lists put back in order included', async () => {
    const tree = await buildTree(api, token, { blocks: 2, rows: 2, columns: [6, 6], contents: 2 });
    const read = readingEveryTag(tree);
    const at = ok(await api.get(tree.project, { token })).body.revision as number;
    // What the restore undoes: a title; two contents and two rows, each pair put back in its
    // order by two moves to the top (new sort keys, the same lists); one content edited.
    const [first, second] = tree.contents[0][0][0];
    const [upper, lower] = tree.rows[1];
    const edited = tree.contents[1][0][1][1];
    ok(await api.put(tree.project, { title: 'Renamed' }, { token }));
    for (const node of [second, first, lower, upper]) {
      ok(await api.post(`${node}/move`, { position: 0 }, { token }));
    }
    ok(await api.put(edited, { type: 'quote' }, { token }));
    const before = await read();

    const restored = ok(
      await api.post(`${tree.project}/revisions/${at}/restore`, undefined, { token }),
    );
    const after = await read();
    const revision = restored.body.revision as number;
    const wrong = after.filter(
      (now, i) => (now.text === before[i].text) !== (now.etag === before[i].etag),
    );
    expect(wrong.map(({ path }) => path)).toEqual([]);
    // What differs is the edited content and what holds it, each now tagged with the restore.
    const changed = after.filter((now, i) => now.text !== before[i].text).map(({ path }) => path);
    const column = tree.columns[1][0][1];
    expect(changed.sort()).toEqual(
      [
        edited,
        column,
        tree.rows[1][0],
        tree.blocks[1],
        `${column}/contents`,
        `${tree.rows[1][0]}/columns`,
        `${tree.blocks[1]}/rows`,
        `${tree.project}/blocks`,
      ].sort(),
    );
    for (const { path, etag } of after.filter(({ path }) => changed.includes(path))) {
      expect({ path, etag }).toEqual({ path, etag: expect.stringMatching(`^"[lr]${revision}"$`) });
    }
    expect((await checkTreeAccounts(tree.projectId)).mismatches).toEqual([]);
  });

  it('gives a new tag to the nodes a restore re-places, to what holds them, and to no other', async () => {
    const tree = await buildTree(api, token, { blocks: 1, rows: 1, columns: [6, 6], contents: 3 });
    const read = readingEveryTag(tree);
    const [column, other] = tree.columns[0][0];
    const [dropped, ...kept] = tree.contents[0][0][0];
    const moved = tree.contents[0][0][1][2];
    const at = ok(await api.get(tree.project, { token })).body.revision as number;
    // One list loses its first content, whose siblings keep their place (and get new keys);
    // in the other, a content moves to the top.
    const bodies = await Promise.all(
      kept.map(async (path) => ok(await api.get(path, { token })).body),
    );
    ok(await api.put(column, { contents: bodies }, { token }));
    ok(await api.post(`${moved}/move`, { position: 0 }, { token }));
    const before = await read();

    ok(await api.post(`${tree.project}/revisions/${at}/restore`, undefined, { token }));
    const after = await read();
    const sameBytes = (i: number) => after[i].text === before[i].text;
    const sameTag = (i: number) => after[i].etag === before[i].etag;
    // The moved content is back in its place: a move, so a new tag for the same bytes.
    expect(after.filter((_, i) => sameBytes(i) && !sameTag(i)).map(({ path }) => path)).toEqual([
      moved,
    ]);
    expect(after.filter((_, i) => !sameBytes(i) && sameTag(i)).map(({ path }) => path)).toEqual([]);
    const changed = after.filter((_, i) => !sameBytes(i)).map(({ path }) => path);
    expect(changed).toEqual(expect.arrayContaining([`${column}/contents`, `${other}/contents`]));
    // The dropped content is back; its siblings, in their place all along, kept their tags.
    expect(changed).toContain(dropped);
    expect(changed).not.toContain(kept[0]);
    expect(changed).not.toContain(kept[1]);
    expect((await checkTreeAccounts(tree.projectId)).mismatches).toEqual([]);
  });

  it('inserts again, with the tag of the restore, nodes that went with an ancestor the restore removed', async () => {
    const tree = await buildTree(api, token, { blocks: 1, rows: 1, columns: [6], contents: 1 });
    const row = tree.rows[0][0];
    const at = ok(await api.get(tree.project, { token })).body.revision as number;
    const recorded = ok(await api.get(tree.project, { token })).text;
    // The row moves into a new block, which the restore removes, and the row's subtree with it,
    // though its column and content are where they were in the row.
    const block2 = ok(
      await api.post(`${tree.project}/blocks`, { description: 'New' }, { token }),
      201,
    );
    const moved = ok(
      await api.post(`${row}/move`, { blockId: block2.body._id as string }, { token }),
    );
    const restored = ok(
      await api.post(`${tree.project}/revisions/${at}/restore`, undefined, { token }),
    );
    const revision = restored.body.revision as number;
    for (const path of [row, tree.columns[0][0][0], tree.contents[0][0][0][0]]) {
      const etag = ok(await api.get(path, { token })).headers.etag;
      expect({ path, etag }).toEqual({ path, etag: `"r${revision}"` });
    }
    // The history stays whole: the state before, and a restore of the move, as it was then but
    // for what a restore moves on (the contract's restore row).
    expect(ok(await api.get(`${tree.project}/revisions/${at}`, { token })).text).toBe(recorded);
    const movedAt = Number(moved.headers['project-revision']);
    const movedState = ok(await api.get(`${tree.project}/revisions/${movedAt}`, { token })).text;
    const again = ok(
      await api.post(`${tree.project}/revisions/${movedAt}/restore`, undefined, { token }),
    );
    const movingOn = { revision: again.body.revision, updatedAt: again.body.updatedAt };
    expect(again.body).toEqual({ ...(JSON.parse(movedState) as object), ...movingOn });
    expect((await checkTreeAccounts(tree.projectId)).mismatches).toEqual([]);
  });

  it('stores per revision what the request changed, not the project', async () => {
    const versionsOf = async (projectId: string) =>
      Number(
        (
          await db.query<{ n: string }>(
            'SELECT count(*) AS n FROM node_versions WHERE project_id = $1',
            [projectId],
          )
        ).rows[0].n,
      );
    const small = await buildTree(api, token, { blocks: 1, rows: 1, columns: [6, 6], contents: 3 });
    const large = await buildTree(api, token, {
      blocks: 3,
      rows: 2,
      columns: [4, 4, 4],
      contents: 8,
    });
    for (const tree of [small, large]) {
      const before = await versionsOf(tree.projectId);
      ok(await api.put(tree.contents[0][0][0][0], { type: 'quote' }, { token }));
      // One new version: the content's. Its ancestors' bookkeeping is not history.
      expect((await versionsOf(tree.projectId)) - before).toBe(1);
    }
    const before = await versionsOf(large.projectId);
    ok(await api.post(`${large.columns[0][0][2]}/move`, { position: 0 }, { token }));
    // A moved column (with its contents): its own version; its contents and its siblings keep
    // theirs (sparse keys).
    expect((await versionsOf(large.projectId)) - before).toBe(1);
  });

  it('answers 404 to other accounts, for revisions not kept, and for malformed numbers', async () => {
    const { project } = await createLayout(api, token);
    const other = await api.newAccount('history-other');
    for (const url of [`${project}/revisions`, `${project}/revisions/1`]) {
      expect((await api.get(url, { token: other.token })).status).toBe(404);
    }
    expect(
      (await api.post(`${project}/revisions/1/restore`, undefined, { token: other.token })).status,
    ).toBe(404);
    expect(ok(await api.get(project, { token })).body.revision).toBe(4);
    for (const revision of ['5', '0', '01', 'x', '99999999999']) {
      const answer = await api.get(`${project}/revisions/${revision}`, { token });
      expect({ revision, status: answer.status }).toEqual({ revision, status: 404 });
    }
    expect((await api.post(`${project}/revisions/5/restore`, undefined, { token })).status).toBe(
      404,
    );
    expect(ok(await api.get(project, { token })).body.revision).toBe(4);
  });

  it('takes no body, or an empty one, for a restore: anything else is a 400 that changes nothing', async () => {
    const { project } = await createLayout(api, token);
    for (const raw of ['[]', '{"revision":2}', '"2"', 'null']) {
      const answer = await api.request('POST', `${project}/revisions/2/restore`, {
        token,
        raw,
        headers: { 'content-type': 'application/json' },
      });
      expect({ raw, status: answer.status }).toEqual({ raw, status: 400 });
      expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
    expect(ok(await api.get(project, { token })).body.revision).toBe(4);
    ok(await api.post(`${project}/revisions/2/restore`, {}, { token }));
    ok(await api.post(`${project}/revisions/3/restore`, undefined, { token }));
    expect(ok(await api.get(project, { token })).body.revision).toBe(6);
  });

  it('pages the list newest first with before and limit, and refuses bad parameters', async () => {
    const { project } = await createLayout(api, token);
    const first = ok(await api.get(`${project}/revisions?limit=3`, { token }));
    expect(first.body.map((r: { revision: number }) => r.revision)).toEqual([4, 3, 2]);
    expect(first.headers.link).toBe(`<${project}/revisions?before=2&limit=3>; rel="next"`);
    const last = ok(await api.get(`${project}/revisions?before=2&limit=3`, { token }));
    expect(last.body.map((r: { revision: number }) => r.revision)).toEqual([1]);
    expect(last.headers.link).toBeUndefined();
    for (const query of ['limit=0', 'limit=101', 'before=0', 'before=x', 'other=1']) {
      const answer = await api.get(`${project}/revisions?${query}`, { token });
      expect({ query, status: answer.status }).toEqual({ query, status: 400 });
    }
    // Past the largest revision a project can have: the answer says where the range ends.
    const tooLate = await api.get(`${project}/revisions?before=2147483648`, { token });
    expect(tooLate.body.errors).toEqual([
      {
        pointer: '/before',
        detail: 'must be a revision number (an integer from 1 to 2147483647)',
      },
    ]);
  });

  it('answers 304 to a revision list or a past state whose tag the client names', async () => {
    const { project, contents } = await createLayout(api, token);
    const list = ok(await api.get(`${project}/revisions`, { token }));
    const cached = { token, headers: { 'if-none-match': list.headers.etag as string } };
    expect((await api.get(`${project}/revisions`, cached)).status).toBe(304);
    // A page of older revisions: its entries never change, and neither does its tag.
    const older = ok(await api.get(`${project}/revisions?before=4&limit=2`, { token }));
    const olderCached = { token, headers: { 'if-none-match': older.headers.etag as string } };
    const olderLink = older.headers.link as string;
    expect(olderLink).toContain('before=2');
    const past = ok(await api.get(`${project}/revisions/2`, { token }));
    const again = await api.get(`${project}/revisions/2`, {
      token,
      headers: { 'if-none-match': past.headers.etag as string },
    });
    expect(again.status).toBe(304);
    // A new revision changes the first page's tag, not an older page's nor the past state's.
    ok(await api.post(contents, { type: 'empty' }, { token }), 201);
    expect((await api.get(`${project}/revisions`, cached)).status).toBe(200);
    const olderAgain = await api.get(`${project}/revisions?before=4&limit=2`, olderCached);
    expect([olderAgain.status, olderAgain.headers.etag]).toEqual([304, older.headers.etag]);
    expect(
      (
        await api.get(`${project}/revisions/2`, {
          token,
          headers: { 'if-none-match': past.headers.etag as string },
        })
      ).status,
    ).toBe(304);
    // Pages with other entries, or another Link, never share a tag.
    const tags = new Set<string>();
    for (const query of [
      '',
      'limit=1',
      'limit=2',
      'before=4&limit=1',
      'before=4&limit=3',
      'before=2',
    ]) {
      tags.add((await api.get(`${project}/revisions?${query}`, { token })).headers.etag as string);
    }
    expect(tags.size).toBe(6);
  });

  it('deletes the history with the project, and the whole tree', async () => {
    const tree = await buildTree(api, token, { blocks: 1, rows: 1, columns: [12], contents: 2 });
    // Rows, columns and contents go through their parents' keys, which hold the project.
    const left = async () =>
      (
        await db.query<Record<string, number>>(
          `SELECT (SELECT count(*) FROM revisions WHERE project_id = $1)::int AS revisions,
             (SELECT count(*) FROM node_versions WHERE project_id = $1)::int AS versions,
             (SELECT count(*) FROM blocks WHERE project_id = $1)::int AS blocks,
             (SELECT count(*) FROM rows WHERE project_id = $1)::int AS rows,
             (SELECT count(*) FROM columns WHERE project_id = $1)::int AS columns,
             (SELECT count(*) FROM contents WHERE project_id = $1)::int AS contents`,
          [tree.projectId],
        )
      ).rows[0];
    expect(Object.values(await left()).every((n) => n > 0)).toBe(true);
    ok(await api.delete(tree.project, { token }), 204);
    expect(await left()).toEqual({
      revisions: 0,
      versions: 0,
      blocks: 0,
      rows: 0,
      columns: 0,
      contents: 0,
    });
    expect((await api.get(`${tree.project}/revisions`, { token })).status).toBe(404);
  });
});

describe('history retention (HISTORY_REVISIONS)', () => {
  let app: NestFastifyApplication;
  let api: Api;
  let token: string;

  beforeAll(async () => {
    app = await startTestApp({ HISTORY_REVISIONS: '5' });
    api = new Api(app);
    ({ token } = await api.newAccount('retention'));
  });
  afterAll(() => app.close());

  it('keeps the newest revisions; older ones answer 404, also once pruned', async () => {
    const { project, contents } = await createLayout(api, token);
    for (let i = 0; i < 30; i++) await api.post(contents, { type: 'empty' }, { token });
    const revision = (await api.get(project, { token })).body.revision as number;
    expect(revision).toBe(34);
    const listed = (await api.get(`${project}/revisions`, { token })).body as {
      revision: number;
    }[];
    expect(listed.map((r) => r.revision)).toEqual([34, 33, 32, 31, 30]);
    expect((await api.get(`${project}/revisions/30`, { token })).status).toBe(200);
    expect((await api.get(`${project}/revisions/29`, { token })).status).toBe(404);
    expect((await api.post(`${project}/revisions/29/restore`, undefined, { token })).status).toBe(
      404,
    );
    expect((await api.get(`${project}/revisions/2`, { token })).status).toBe(404);
    // The oldest kept state can still be restored, with every content it had.
    const restored = await api.post(`${project}/revisions/30`.concat('/restore'), undefined, {
      token,
    });
    expect(restored.status).toBe(200);
    expect(restored.body.blocks[0].rows[0].columns[0].contents).toHaveLength(26);
    // Pruned from the table, not only hidden: at revision 32 (every 16th), up to 27 went.
    const db = new Client({ connectionString: process.env.LAYOUT_TEST_DATABASE_URL });
    await db.connect();
    try {
      const { rows } = await db.query<{ oldest: number }>(
        'SELECT min(revision) AS oldest FROM revisions WHERE project_id = $1',
        [project.split('/').pop()],
      );
      expect(rows[0].oldest).toBe(28);
    } finally {
      await db.end();
    }
  });

  it('keeps the oldest kept state whole right after a revision that prunes', async () => {
    const { project, contents } = await createLayout(api, token);
    const content = (
      await api.post(contents, { type: 'text', data: { html: '<p>0</p>' } }, { token })
    ).body._id as string;
    const revisionNow = async () => (await api.get(project, { token })).body.revision as number;
    // One content rewritten at every revision: each closes the version the one before opened.
    const rewriteUntil = async (revision: number) => {
      while ((await revisionNow()) < revision) {
        const html = `<p>${(await revisionNow()) + 1}</p>`;
        const put = await api.put(
          `${contents}/${content}`,
          { type: 'text', data: { html } },
          {
            token,
          },
        );
        expect(put.status).toBe(200);
      }
    };
    await rewriteUntil(28);
    const then = await api.get(project, { token });
    // 32 prunes (every 16th): 28 is then the oldest of the 5 kept, and its content's version
    // ended at 29, on the bound of what the pruning deletes.
    await rewriteUntil(32);
    expect(await revisionNow()).toBe(32);
    const past = await api.get(`${project}/revisions/28`, { token });
    expect(past.status).toBe(200);
    expect(past.text).toBe(then.text);
    expect((await api.get(`${project}/revisions/27`, { token })).status).toBe(404);
  });
});
