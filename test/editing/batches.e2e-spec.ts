import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { BATCH_OPERATIONS_MAX } from '@layout/contracts';
import { Api, startTestApp } from '../support/test-app';
import { type BuiltTree, buildTree, idOf, withoutIds } from '../support/tree-builder';
import { checkTreeAccounts } from '../support/tree-invariants';

type Operation = {
  method: 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
  ifMatch?: string;
  ref?: string;
};

/**
 * CONTRACT part three, "Batches": several writes of one project as one request, in order, each
 * checked as if sent alone at its turn, one transaction, one revision, one history entry, all
 * or nothing, with `ref` / `$ref` naming what an earlier operation made.
 */
describe('batches of writes', () => {
  let app: NestFastifyApplication;
  let api: Api;
  let token: string;

  beforeAll(async () => {
    app = await startTestApp();
    api = new Api(app);
    ({ token } = await api.newAccount('batcher'));
  });
  afterAll(() => app.close());

  /** Two blocks of two rows of two columns (6 + 6) of two contents. */
  const tree = () => buildTree(api, token, { blocks: 2, rows: 2, columns: [6, 6], contents: 2 });
  const batch = (t: BuiltTree, operations: Operation[], headers: Record<string, string> = {}) =>
    api.post(`${t.project}/batch`, { operations }, { token, headers });
  const project = async (t: BuiltTree) => (await api.get(t.project, { token })).body;
  const history = async (t: BuiltTree) =>
    (await api.get(`${t.project}/revisions?limit=100`, { token })).body as {
      revision: number;
      operation: string;
      path: string;
    }[];

  /** Every kind of operation at every level, on the tree `t`, each seeing the ones before. */
  function everyKind(t: BuiltTree): Operation[] {
    const [b0, b1] = t.blocks;
    const content = t.contents[0][0][0][0];
    return [
      { method: 'POST', path: `${t.project}/blocks`, body: { description: 'New' }, ref: 'block' },
      { method: 'POST', path: `${t.project}/blocks/$block/rows`, body: {}, ref: 'row' },
      {
        method: 'POST',
        path: `${t.project}/blocks/$block/rows/$row/columns`,
        body: { size: 2, contents: [{ type: 'text', data: { html: '<p>a</p>' } }] },
        ref: 'column',
      },
      {
        method: 'POST',
        path: `${t.project}/blocks/$block/rows/$row/columns/$column/contents`,
        body: { type: 'quote', position: 0 },
        ref: 'content',
      },
      { method: 'PUT', path: b1, body: { description: 'Renamed', position: 0 } },
      { method: 'PUT', path: t.rows[0][1], body: { description: 'Row' } },
      { method: 'PUT', path: t.columns[0][0][1], body: { size: 4 } },
      { method: 'PUT', path: content, body: { type: 'image', data: { alt: 'Team' } } },
      { method: 'POST', path: `${b0}/move`, body: { position: 1 } },
      {
        method: 'POST',
        path: `${t.rows[1][0]}/move`,
        body: { blockId: '$block', position: 0 },
      },
      { method: 'POST', path: `${t.columns[0][0][1]}/move`, body: { rowId: '$row' } },
      {
        method: 'POST',
        path: `${t.contents[1][1][1][0]}/move`,
        body: { columnId: '$column', position: 1 },
      },
      { method: 'POST', path: `${b1}/duplicate`, body: { position: 0 }, ref: 'copy' },
      { method: 'POST', path: `${t.rows[0][1]}/duplicate` },
      { method: 'POST', path: `${t.columns[1][1][0]}/duplicate`, body: { rowId: '$row' } },
      { method: 'POST', path: `${content}/duplicate`, body: { columnId: '$column' } },
      { method: 'DELETE', path: t.contents[0][0][0][1] },
      { method: 'DELETE', path: t.columns[1][1][1] },
      { method: 'DELETE', path: t.rows[1][1] },
      { method: 'DELETE', path: `${t.project}/blocks/$copy` },
    ];
  }

  /** The same operations sent one by one, each `$ref` replaced by what its create answered. */
  async function oneByOne(operations: Operation[]): Promise<number[]> {
    const made = new Map<string, string>();
    const resolve = (text: string) => text.replace(/\$(\w+)/g, (_, ref: string) => made.get(ref)!);
    const statuses: number[] = [];
    for (const operation of operations) {
      const path = resolve(operation.path);
      const body =
        operation.body === undefined
          ? undefined
          : (JSON.parse(resolve(JSON.stringify(operation.body))) as unknown);
      const answer = await api.request(operation.method, path, { token, body });
      statuses.push(answer.status);
      if (operation.ref) made.set(operation.ref, idOf(answer.headers.location as string));
    }
    return statuses;
  }

  it('applies every kind of operation of every level as one revision, with each one’s own answer', async () => {
    const t = await tree();
    const before = await project(t);
    const operations = everyKind(t);

    const answer = await batch(t, operations);

    expect([answer.status, answer.body.errors]).toEqual([200, undefined]);
    const revision = before.revision + 1;
    expect(answer.headers['project-revision']).toBe(String(revision));
    expect(answer.headers.etag).toBe(`"r${revision}"`);
    expect(answer.body.revision).toBe(revision);
    expect(answer.body.results.map((r: { status: number }) => r.status)).toEqual(
      operations.map(({ method, path }) =>
        method === 'DELETE' ? 204 : method === 'PUT' || path.endsWith('/move') ? 200 : 201,
      ),
    );
    // What each would have answered alone: a create's Location and tag, its document.
    const [block, row, column, content] = answer.body.results as {
      location: string;
      etag: string;
      body: { _id: string; size?: string; contents?: unknown[] };
    }[];
    expect(block.location).toBe(`${t.project}/blocks/${block.body._id}`);
    expect(row.location).toBe(`${block.location}/rows/${row.body._id}`);
    expect(column.location).toBe(`${row.location}/columns/${column.body._id}`);
    expect(content.location).toBe(`${column.location}/contents/${content.body._id}`);
    expect(column.body.contents).toHaveLength(1);
    expect([block.etag, content.etag]).toEqual([`"r${revision}"`, `"r${revision}"`]);
    expect(answer.body.results[16]).toEqual({ status: 204 });

    const after = await project(t);
    expect(after.revision).toBe(revision);
    const entries = await history(t);
    expect(entries[0]).toMatchObject({ revision, operation: 'batch', path: t.project });
    expect(entries[1].revision).toBe(before.revision);
    expect(await checkTreeAccounts(t.projectId)).toMatchObject({ mismatches: [] });
  });

  it('leaves the same tree as the same operations sent one by one', async () => {
    const batched = await tree();
    const alone = await tree();

    expect((await batch(batched, everyKind(batched))).status).toBe(200);
    const statuses = await oneByOne(everyKind(alone));

    expect(statuses.every((status) => status >= 200 && status < 300)).toBe(true);
    const [a, b] = [await project(batched), await project(alone)];
    expect(withoutIds(a.blocks)).toEqual(withoutIds(b.blocks));
  });

  it('changes nothing when an operation at any position is refused, and names it', async () => {
    const t = await tree();
    const valid = everyKind(t).slice(0, 6);
    const before = await project(t);
    const entries = await history(t);
    const refusals: [Operation, number, string][] = [
      [
        { method: 'PUT', path: t.columns[0][0][0], body: { size: 13 } },
        400,
        '/problems/validation',
      ],
      [
        { method: 'PUT', path: t.columns[0][0][0], body: { size: 9 } },
        409,
        '/problems/row-width-exceeded',
      ],
      [
        { method: 'DELETE', path: `${t.blocks[0]}/rows/01a20156-031d-7308-8ece-3f57ceca9fe1` },
        404,
        '/problems/not-found',
      ],
      [
        { method: 'DELETE', path: t.rows[0][0], ifMatch: '"r1"' },
        412,
        '/problems/precondition-failed',
      ],
    ];
    for (const [refused, status, type] of refusals) {
      for (let index = 0; index <= valid.length; index += 3) {
        const operations = [...valid.slice(0, index), refused, ...valid.slice(index)];
        const answer = await batch(t, operations);
        expect([answer.status, answer.body.type, answer.body.operationIndex]).toEqual([
          status,
          type,
          index,
        ]);
        expect(answer.headers['project-revision']).toBeUndefined();
      }
    }
    expect(await project(t)).toEqual(before);
    expect(await history(t)).toEqual(entries);
  });

  describe('updates of members one after another (one statement for a run)', () => {
    /** Updates of contents, blocks and a row, runs broken by a level and a node coming again. */
    async function updates(t: BuiltTree): Promise<Operation[]> {
      const c = t.contents;
      const kept = (await api.get(c[0][0][1][0], { token })).body as Record<string, unknown>;
      return [
        { method: 'PUT', path: c[0][0][0][0], body: { type: 'text', data: { html: '<p>1</p>' } } },
        { method: 'PUT', path: c[0][0][0][1], body: { type: 'image' } },
        { method: 'PUT', path: c[0][0][1][0], body: { ...kept, _id: undefined } },
        { method: 'PUT', path: c[1][1][1][1], body: { type: 'quote', style: { opacity: 0.5 } } },
        {
          method: 'PUT',
          path: t.blocks[0],
          body: { description: 'B', style: { backgroundColor: '#fff' } },
        },
        { method: 'PUT', path: t.blocks[1], body: { description: 'C' } },
        { method: 'PUT', path: t.rows[0][0], body: { description: 'R' } },
        { method: 'PUT', path: c[0][0][0][0], body: { type: 'text', data: { html: '<p>2</p>' } } },
        { method: 'PUT', path: c[0][0][0][1], body: { type: 'video' } },
      ];
    }

    it('answers each as it would alone, and leaves the tree the same operations sent one by one leave', async () => {
      const [batched, alone] = [await tree(), await tree()];
      const unchangedTag = (await api.get(batched.contents[0][0][1][0], { token })).headers.etag;
      const operations = await updates(batched);

      const answer = await batch(batched, operations);
      const made = await oneByOne(await updates(alone));

      expect(answer.status).toBe(200);
      const results = answer.body.results as { status: number; etag: string; body: unknown }[];
      expect(results.map((r) => r.status)).toEqual(made);
      const revision = `"r${answer.body.revision}"`;
      expect(results.map((r) => r.etag)).toEqual(
        operations.map((_, i) => (i === 2 ? unchangedTag : revision)),
      );
      expect(results[1].body).toMatchObject({ type: 'image', data: {} });
      expect(results[7].body).toMatchObject({ data: { html: '<p>2</p>' } });
      expect(results[8].body).toMatchObject({ type: 'video', data: {} });
      const [a, b] = [await project(batched), await project(alone)];
      expect(withoutIds(a.blocks)).toEqual(withoutIds(b.blocks));
      expect(await checkTreeAccounts(batched.projectId)).toMatchObject({ mismatches: [] });
    });

    it('refuses one of a run (a stale tag, a node not on its path) with its own index, changing nothing', async () => {
      const t = await tree();
      const operations = await updates(t);
      const before = await project(t);
      const entries = await history(t);
      // A content of another column under this one's path; a block or row no one made.
      const stranger = idOf(t.contents[1][0][0][0]);
      const notOnPath = (path: string) =>
        path.replace(
          /[^/]+$/,
          path.includes('/contents/') ? stranger : '01a20156-031d-7308-8ece-3f57ceca9fe1',
        );
      for (const index of [0, 1, 3, 5, 6]) {
        const stale = operations.map((o, i) => (i === index ? { ...o, ifMatch: '"r1"' } : o));
        const staleAnswer = await batch(t, stale);
        expect([staleAnswer.status, staleAnswer.body.operationIndex]).toEqual([412, index]);
        const lost = operations.map((o, i) =>
          i === index ? { ...o, path: notOnPath(o.path) } : o,
        );
        const lostAnswer = await batch(t, lost);
        expect([lostAnswer.status, lostAnswer.body.type, lostAnswer.body.operationIndex]).toEqual([
          404,
          '/problems/not-found',
          index,
        ]);
      }
      expect(await project(t)).toEqual(before);
      expect(await history(t)).toEqual(entries);
    });
  });

  it('answers the first refusal in order, though a later operation is refused before the lock', async () => {
    const t = await tree();
    const answer = await batch(t, [
      { method: 'PUT', path: t.columns[0][0][0], body: { size: 9 } },
      { method: 'PUT', path: t.columns[0][0][1], body: { size: 'wide' } },
    ]);
    expect([answer.status, answer.body.operationIndex]).toEqual([409, 0]);
    expect(answer.body.availableSize).toBe(6);
  });

  it('resolves $ref in paths and in the members that name a parent or a content', async () => {
    const t = await tree();
    const answer = await batch(t, [
      { method: 'POST', path: `${t.blocks[0]}/rows`, body: { description: 'Fresh' }, ref: 'fresh' },
      {
        method: 'POST',
        path: `${t.blocks[0]}/rows/$fresh/columns`,
        body: { size: 12, contents: [{ type: 'empty' }] },
        ref: 'wide',
      },
      { method: 'POST', path: `${t.contents[0][0][0][0]}/move`, body: { columnId: '$wide' } },
    ]);
    expect(answer.status).toBe(200);
    const column = answer.body.results[1].body;
    const moved = answer.body.results[2];
    expect(moved.location).toBe(
      `${t.blocks[0]}/rows/${answer.body.results[0].body._id}/columns/${column._id}/contents/${idOf(t.contents[0][0][0][0])}`,
    );
    const read = await api.get(`${answer.body.results[1].location}/contents`, { token });
    expect(read.body).toHaveLength(2);

    // A column's new contents may name the content an earlier operation made.
    const listed = await batch(t, [
      {
        method: 'POST',
        path: `${t.columns[1][0][0]}/contents`,
        body: { type: 'text', data: { html: '<p>new</p>' } },
        ref: 'made',
      },
      {
        method: 'PUT',
        path: t.columns[1][0][0],
        body: { contents: [{ _id: '$made', type: 'text' }] },
      },
    ]);
    expect(listed.status).toBe(200);
    expect(listed.body.results[1].body.contents).toEqual([listed.body.results[0].body]);
  });

  it('refuses a batch whose shape no route takes, pointing into its body', async () => {
    const t = await tree();
    const row = t.rows[0][0];
    const cases: [Operation[], string, number?][] = [
      [
        [{ method: 'POST', path: `${row}/columns/$nowhere/contents`, body: { type: 'empty' } }],
        '/operations/0/path',
        0,
      ],
      [[{ method: 'PUT', path: t.project, body: { title: 'x' } }], '/operations/0/path', 0],
      [[{ method: 'POST', path: `${t.project}/revisions/1/restore` }], '/operations/0/path', 0],
      [[{ method: 'POST', path: `${t.project}/duplicate` }], '/operations/0/path', 0],
      [[{ method: 'DELETE', path: row, body: {} }], '/operations/0/body', 0],
      [[{ method: 'PUT', path: row, body: {}, ref: 'x' }], '/operations/0/ref', 0],
      [
        [
          { method: 'POST', path: `${t.blocks[0]}/rows`, ref: 'twice' },
          { method: 'POST', path: `${t.blocks[0]}/rows`, ref: 'twice' },
        ],
        '/operations/1/ref',
        1,
      ],
      [
        [{ method: 'POST', path: `${row}/move`, body: { blockId: '$later' } }],
        '/operations/0/body/blockId',
        0,
      ],
      [
        [
          {
            method: 'DELETE',
            path: '/projects/01a20156-031d-7308-8ece-3f57ceca9fe1/blocks/01a20156-031d-7308-8ece-3f57ceca9fe2',
          },
        ],
        '/operations/0/path',
        0,
      ],
    ];
    const before = await project(t);
    for (const [operations, pointer, index] of cases) {
      const answer = await batch(t, operations);
      expect([answer.status, answer.body.type]).toEqual([400, '/problems/validation']);
      expect(answer.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual([pointer]);
      expect(answer.body.operationIndex).toBe(index);
    }
    for (const body of [
      { operations: [] },
      {
        operations: Array.from({ length: BATCH_OPERATIONS_MAX + 1 }, () => ({
          method: 'DELETE',
          path: row,
        })),
      },
      { operations: [{ method: 'PATCH', path: row }] },
      { operations: [{ method: 'PUT', path: row, body: 'text' }] },
    ]) {
      const answer = await api.post(`${t.project}/batch`, body, { token });
      expect([answer.status, answer.body.type]).toEqual([400, '/problems/validation']);
    }
    expect(await project(t)).toEqual(before);
  });

  it('compares If-Match with the project’s tag, and replays an Idempotency-Key', async () => {
    const t = await tree();
    const { revision } = await project(t);
    const resize = [{ method: 'PUT' as const, path: t.columns[0][0][0], body: { size: 3 } }];
    const stale = await batch(t, resize, { 'if-match': `"r${revision - 1}"` });
    expect([stale.status, stale.headers.etag]).toEqual([412, `"r${revision}"`]);

    const key = { 'idempotency-key': 'batch-key-1', 'if-match': `"r${revision}"` };
    const first = await batch(t, resize, key);
    const again = await batch(t, resize, key);
    expect(first.status).toBe(200);
    expect([again.status, again.text]).toEqual([200, first.text]);
    expect((await project(t)).revision).toBe(revision + 1);
  });

  it('answers the current revision when no operation changed anything', async () => {
    const t = await tree();
    const { revision } = await project(t);
    const answer = await batch(t, [
      { method: 'PUT', path: t.columns[0][0][0], body: { size: 6 } },
      { method: 'POST', path: `${t.blocks[1]}/move`, body: { position: 1 } },
    ]);
    expect([answer.status, answer.body.revision, answer.headers.etag]).toEqual([
      200,
      revision,
      `"r${revision}"`,
    ]);
    expect((await history(t))[0].revision).toBe(revision);
  });
});
