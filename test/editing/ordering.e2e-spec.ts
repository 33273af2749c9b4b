import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import fc from 'fast-check';
import { Client } from 'pg';
import { checkTreeAccounts } from '../support/tree-invariants';
import { Api, createLayout, startTestApp } from '../support/test-app';

/**
 * Ordering (part one) on the sparse sort keys, and the write cost the contract bounds: an append
 * or a delete touches no sibling, an insert or a move only the node itself (until the gap at its
 * place is used up).
 */
describe('ordering', () => {
  let app: NestFastifyApplication;
  let api: Api;
  let token: string;

  beforeAll(async () => {
    app = await startTestApp();
    api = new Api(app);
    ({ token } = await api.newAccount('ordering'));
  });
  afterAll(() => app.close());

  const ids = async (list: string) =>
    ((await api.get(list, { token })).body as { _id: string }[]).map((item) => item._id);

  /** Row versions (xmin) of the contents of a column: a row written again gets a new one. */
  async function versions(columnId: string): Promise<Map<string, string>> {
    const db = new Client({ connectionString: process.env.LAYOUT_TEST_DATABASE_URL });
    await db.connect();
    try {
      const { rows } = await db.query<{ id: string; xmin: string }>(
        'SELECT id::text, xmin::text FROM contents WHERE column_id = $1',
        [columnId],
      );
      return new Map(rows.map((row) => [row.id, row.xmin]));
    } finally {
      await db.end();
    }
  }

  it('keeps the order through inserts at one place many times over (the gap runs out)', async () => {
    const layout = await createLayout(api, token);
    const expected: string[] = [];
    for (let i = 0; i < 3; i++) {
      expected.push((await api.post(layout.contents, { type: 'empty' }, { token })).body._id);
    }
    // Always between the first and the second: halves one gap each time, past its 20 halvings.
    for (let i = 0; i < 45; i++) {
      const created = await api.post(layout.contents, { type: 'empty', position: 1 }, { token });
      expect(created.status).toBe(201);
      expected.splice(1, 0, created.body._id);
    }
    expect(await ids(layout.contents)).toEqual(expected);
    const head = (await api.post(layout.contents, { type: 'empty', position: 0 }, { token })).body;
    expect((await ids(layout.contents))[0]).toBe(head._id);
  });

  it('appends and deletes without writing any sibling', async () => {
    const layout = await createLayout(api, token);
    const columnId = layout.column.split('/').pop() as string;
    for (let i = 0; i < 5; i++) await api.post(layout.contents, { type: 'empty' }, { token });
    const before = await versions(columnId);
    const added = await api.post(layout.contents, { type: 'empty' }, { token });
    const [first] = await ids(layout.contents);
    await api.delete(`${layout.contents}/${first}`, { token });
    const after = await versions(columnId);
    before.delete(first);
    for (const [id, version] of before) expect(after.get(id)).toBe(version);
    expect(after.has(added.body._id)).toBe(true);
  });

  it('moves a node within its list with PUT position, writing only that node', async () => {
    const layout = await createLayout(api, token);
    const columnId = layout.column.split('/').pop() as string;
    const order: string[] = [];
    for (let i = 0; i < 6; i++) {
      order.push((await api.post(layout.contents, { type: 'empty' }, { token })).body._id);
    }
    for (const [from, to] of [
      [0, 3],
      [5, 0],
      [2, 2],
      [1, 99],
      [4, 1],
    ]) {
      const before = await versions(columnId);
      const id = order[from];
      const response = await api.put(
        `${layout.contents}/${id}`,
        { type: 'empty', position: to },
        { token },
      );
      expect(response.status).toBe(200);
      order.splice(from, 1);
      order.splice(Math.min(to, order.length), 0, id);
      expect(await ids(layout.contents)).toEqual(order);
      const after = await versions(columnId);
      const rewritten = [...before].filter(([other, version]) => after.get(other) !== version);
      expect(rewritten.map(([other]) => other)).toEqual(from === to ? [] : [id]);
    }
  });

  it('keeps every stored counter exact through any sequence of writes', async () => {
    const layout = await createLayout(api, token, 3);
    const projectId = layout.project.split('/').pop() as string;
    const paths = {
      blocks: [layout.block],
      rows: [layout.row],
      columns: [layout.column],
      contents: [] as string[],
    };
    const pick = (list: string[], n: number) => list[n % list.length];
    const ops = fc.array(
      fc.tuple(
        fc.constantFrom(
          ...(['block', 'row', 'column', 'content', 'content', 'edit', 'move'] as const),
          ...(['delete', 'replace', 'drop', 'retitle', 'relocate', 'copy'] as const),
        ),
        fc.nat(1000),
        fc.nat(5),
      ),
      { minLength: 60, maxLength: 60 },
    );
    const [sequence] = fc.sample(ops, { numRuns: 1, seed: 20261122 });
    /** The lists of paths, as a list of node kinds and the parent list each one's parents are in. */
    const levels = [
      { list: paths.blocks, parents: undefined, body: 'position' },
      { list: paths.rows, parents: paths.blocks, body: 'blockId' },
      { list: paths.columns, parents: paths.rows, body: 'rowId' },
      { list: paths.contents, parents: paths.columns, body: 'columnId' },
    ] as const;
    const done = { relocate: 0, copy: 0 };
    /** A node moved: every path at or beneath its old one now starts with its new one. */
    const rewrite = (from: string, to: string) => {
      for (const { list } of levels) {
        list.forEach((path, i) => {
          if (path === from || path.startsWith(`${from}/`)) list[i] = to + path.slice(from.length);
        });
      }
    };
    for (const [step, [kind, n, position]] of sequence.entries()) {
      // Checked after every step: two wrong deltas can cancel out by the end.
      if (step % 5 === 0) {
        expect([step, (await checkTreeAccounts(projectId)).mismatches]).toEqual([step, []]);
      }
      if (kind === 'block') {
        const r = await api.post(
          `${layout.project}/blocks`,
          { description: `b${n}`, position },
          { token },
        );
        if (r.status === 201) paths.blocks.push(r.headers.location as string);
      } else if (kind === 'row') {
        const r = await api.post(
          `${pick(paths.blocks, n)}/rows`,
          { description: 'é'.repeat(n % 7), position },
          { token },
        );
        if (r.status === 201) paths.rows.push(r.headers.location as string);
      } else if (kind === 'column') {
        const r = await api.post(
          `${pick(paths.rows, n)}/columns`,
          {
            size: 1 + (n % 3),
            position,
            contents: [{ type: 'text', data: { html: `<p>${n}</p>` } }],
          },
          { token },
        );
        if (r.status === 201) paths.columns.push(r.headers.location as string);
      } else if (kind === 'content') {
        const r = await api.post(
          `${pick(paths.columns, n)}/contents`,
          { type: 'quote', data: { content: { items: [{ id: 'a', price: n / 7 }] } }, position },
          { token },
        );
        if (r.status === 201) paths.contents.push(r.headers.location as string);
      } else if (kind === 'edit' && paths.contents.length > 0) {
        await api.put(
          pick(paths.contents, n),
          { type: 'text', data: { html: `<p>${'“x”'.repeat(n % 9)}</p>` } },
          { token },
        );
      } else if (kind === 'move') {
        await api.put(pick(paths.rows, n), { position }, { token });
        await api.put(pick(paths.columns, n), { size: 1 + (n % 2), position }, { token });
      } else if (kind === 'replace') {
        const column = pick(paths.columns, n);
        const current = ((await api.get(column, { token })).body.contents ?? []) as {
          _id: string;
        }[];
        await api.put(
          column,
          {
            contents: [
              { type: 'empty' },
              ...current
                .slice(1)
                .reverse()
                .map((c) => ({ _id: c._id, type: 'image' })),
            ],
          },
          { token },
        );
      } else if (kind === 'delete' && paths.contents.length > 1) {
        await api.delete(paths.contents.splice(n % paths.contents.length, 1)[0], { token });
      } else if (kind === 'drop') {
        // A column, a row or a block with what is beneath (kept on the path lists: later
        // writes to them answer 404, which must change nothing either).
        const list = [paths.columns, paths.rows, paths.blocks][n % 3];
        if (list.length > 1) await api.delete(list.splice(n % list.length, 1)[0], { token });
      } else if (kind === 'relocate' || kind === 'copy') {
        // A node of any level to any parent of the level above (or a place among the blocks),
        // moved or copied: the counters of both paths, and a copy's, must stay exact.
        const { list, parents, body } = levels[n % 4];
        if (list.length === 0) continue;
        const node = pick(list, n);
        const to =
          parents === undefined
            ? {}
            : {
                [body]: pick(parents, n + position)
                  .split('/')
                  .pop(),
              };
        const r = await api.post(
          `${node}/${kind === 'copy' ? 'duplicate' : 'move'}`,
          { ...to, position },
          { token },
        );
        if (r.status === 201) list.push(r.headers.location as string);
        if (r.status === 200) rewrite(node, r.headers.location as string);
        if (r.status < 300) done[kind] += 1;
      } else if (kind === 'retitle') {
        await api.put(layout.project, { title: 'T'.repeat(1 + (n % 150)) }, { token });
        await api.put(pick(paths.blocks, n), { style: { opacity: n / 1000 } }, { token });
      }
    }
    // The walk did move and copy nodes across parents (its seed is fixed).
    expect(done.relocate).toBeGreaterThan(2);
    expect(done.copy).toBeGreaterThan(2);
    // And the edges a random walk may miss: the first child of an empty list and the last one
    // of a list, at every level.
    const block = (await api.post(`${layout.project}/blocks`, { description: 'edge' }, { token }))
      .headers.location as string;
    const row = (await api.post(`${block}/rows`, {}, { token })).headers.location as string;
    const column = (await api.post(`${row}/columns`, { size: 2 }, { token })).headers
      .location as string;
    const content = (await api.post(`${column}/contents`, { type: 'empty' }, { token })).headers
      .location as string;
    for (const path of [content, column, row, block]) {
      expect((await api.delete(path, { token })).status).toBe(204);
      expect([path, (await checkTreeAccounts(projectId)).mismatches]).toEqual([path, []]);
    }
    const answer = await api.get(layout.project, { token });
    expect(await checkTreeAccounts(projectId)).toEqual({
      mismatches: [],
      storedTreeBytes: Buffer.byteLength(answer.text),
    });
  }, 60_000);
});
