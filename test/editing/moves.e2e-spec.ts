import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { CONTENTS_PER_COLUMN_MAX } from '@layout/contracts';
import { Api, startTestApp } from '../support/test-app';
import {
  buildTree,
  changedTags,
  idOf,
  idsOf,
  tagsOf,
  type BuiltTree,
} from '../support/tree-builder';
import { checkTreeAccounts } from '../support/tree-invariants';

/**
 * CONTRACT part two, "Moving a node": a block, row, column or content goes to another place in
 * its project, with its subtree, in one transaction: same id and body, a new path, both lists
 * dense and ordered, the tags of both paths changed and no other but the node's own, which takes
 * the move's revision so that of concurrent moves sent with one tag exactly one goes through.
 */
describe('moving a node', () => {
  let app: NestFastifyApplication;
  let api: Api;
  let token: string;

  beforeAll(async () => {
    app = await startTestApp();
    api = new Api(app);
    ({ token } = await api.newAccount('mover'));
  });
  afterAll(() => app.close());

  /** Two blocks of two rows of two columns (6 + 6) of three contents. */
  const tree = () => buildTree(api, token, { blocks: 2, rows: 2, columns: [6, 6], contents: 3 });
  const revisionOf = async (t: BuiltTree) =>
    (await api.get(t.project, { token })).body.revision as number;
  const listIds = async (path: string) => idsOf((await api.get(path, { token })).body);

  /** After a test's writes: every counter and byte total as a recount from scratch finds it. */
  async function expectAccountsExact(t: BuiltTree) {
    const answer = await api.get(t.project, { token });
    expect(await checkTreeAccounts(t.projectId)).toEqual({
      mismatches: [],
      storedTreeBytes: Buffer.byteLength(answer.text),
    });
  }

  it('moves a content to a column of another block: same id and body, a new path and tag, one revision', async () => {
    const t = await tree();
    const content = t.contents[0][0][0][1];
    const before = await api.get(content, { token });
    const revision = await revisionOf(t);
    const target = t.columns[1][1][0];

    const moved = await api.post(
      `${content}/move`,
      { columnId: idOf(target), position: 1 },
      { token },
    );

    expect(moved.status).toBe(200);
    expect(moved.body).toEqual(before.body);
    expect(moved.headers.etag).toBe(`"r${revision + 1}"`);
    expect(moved.headers.etag).not.toBe(before.headers.etag);
    expect(moved.headers['project-revision']).toBe(String(revision + 1));
    expect(moved.headers.location).toBe(`${target}/contents/${idOf(content)}`);
    expect((await api.get(content, { token })).status).toBe(404);
    const there = await api.get(moved.headers.location as string, { token });
    expect([there.status, there.body, there.headers.etag]).toEqual([
      200,
      before.body,
      moved.headers.etag,
    ]);
    // Both lists dense and in order: gone from one, at index 1 of the other.
    const source = t.contents[0][0][0].map(idOf);
    expect(await listIds(`${t.columns[0][0][0]}/contents`)).toEqual([source[0], source[2]]);
    const destination = t.contents[1][1][0].map(idOf);
    expect(await listIds(`${target}/contents`)).toEqual([
      destination[0],
      idOf(content),
      destination[1],
      destination[2],
    ]);
    expect(await revisionOf(t)).toBe(revision + 1);
    await expectAccountsExact(t);
  });

  it('changes the tags of both paths, of the lists on them and of the node, and no other tag', async () => {
    const t = await tree();
    const content = t.contents[0][0][0][0];
    const target = t.columns[0][1][1];
    const before = await tagsOf(api, token, t.project);

    const moved = await api.post(`${content}/move`, { columnId: idOf(target) }, { token });
    expect(moved.status).toBe(200);

    const after = await tagsOf(api, token, t.project);
    const [b, sourceRow, sourceColumn] = [t.blocks[0], t.rows[0][0], t.columns[0][0][0]];
    const [targetRow] = [t.rows[0][1]];
    expect(changedTags(before, after).sort()).toEqual(
      [
        t.project,
        `${t.project}/blocks`,
        b,
        `${b}/rows`,
        sourceRow,
        `${sourceRow}/columns`,
        sourceColumn,
        `${sourceColumn}/contents`,
        targetRow,
        `${targetRow}/columns`,
        target,
        `${target}/contents`,
      ].sort(),
    );
    // The moved content's own tag, at its new path, is the move's.
    expect(after.get(moved.headers.location as string)).toBe(moved.headers.etag);
    expect(moved.headers.etag).not.toBe(before.get(content));
  });

  it('lets exactly one of concurrent moves sent with the node’s tag through, at any level', async () => {
    const t = await tree();
    // Each within its own parent, so that every mover still finds it on its path: a move to
    // another parent would answer the losers 404 (the old path is gone) before any If-Match.
    const movers = [
      { node: t.blocks[1], bodies: [{ position: 0 }, { position: 5 }] },
      { node: t.rows[0][0], bodies: [{ position: 1 }, {}] },
      { node: t.contents[0][0][0][1], bodies: [{ position: 0 }, { position: 2 }] },
    ].map(({ node, bodies }) => ({ node, bodies: [...bodies, ...bodies] }));
    for (const { node, bodies } of movers) {
      const tag = (await api.get(node, { token })).headers.etag as string;
      const revision = await revisionOf(t);
      const answers = await Promise.all(
        bodies.map((body) =>
          api.post(`${node}/move`, body, { token, headers: { 'if-match': tag } }),
        ),
      );
      expect(answers.map((r) => r.status).sort()).toEqual([200, 412, 412, 412]);
      const winner = answers.find((r) => r.status === 200)!;
      expect(winner.headers.etag).toBe(`"r${revision + 1}"`);
      for (const loser of answers.filter((r) => r.status === 412)) {
        expect(loser.headers.etag).toBe(winner.headers.etag);
      }
      expect(await revisionOf(t)).toBe(revision + 1);
      // Afterwards too: the tag the node had before its move is stale.
      const again = await api.post(`${winner.headers.location as string}/move`, bodies[0], {
        token,
        headers: { 'if-match': tag },
      });
      expect(again.status).toBe(412);
    }
    await expectAccountsExact(t);
  });

  it('moves within a column; to where it is already (or to the end when it is last) it changes nothing', async () => {
    const t = await tree();
    const column = t.columns[0][0][0];
    const [first, second, third] = t.contents[0][0][0];
    const revision = await revisionOf(t);

    const up = await api.post(`${third}/move`, { position: 0 }, { token });
    expect([up.status, up.headers.location]).toEqual([200, third]);
    expect(await listIds(`${column}/contents`)).toEqual([third, first, second].map(idOf));
    expect(up.headers['project-revision']).toBe(String(revision + 1));

    for (const [path, body] of [
      [third, { position: 0 }],
      [second, {}],
      [second, { columnId: idOf(column), position: 99 }],
    ] as const) {
      const same = await api.post(`${path}/move`, body, { token });
      expect([same.status, same.headers['project-revision']]).toEqual([200, String(revision + 1)]);
    }
    expect(await revisionOf(t)).toBe(revision + 1);
    // No body at all: the end of its own column.
    const noBody = await api.request('POST', `${first}/move`, { token });
    expect(noBody.status).toBe(200);
    expect(await listIds(`${column}/contents`)).toEqual([third, second, first].map(idOf));
    // A position past the end is the end, from anywhere in the list.
    const pastTheEnd = await api.post(`${third}/move`, { position: 2 ** 53 - 1 }, { token });
    expect(pastTheEnd.status).toBe(200);
    expect(await listIds(`${column}/contents`)).toEqual([second, first, third].map(idOf));
    await expectAccountsExact(t);
  });

  it('moves a column to a row with room, and refuses one without room for its size (409, nothing changes)', async () => {
    const t = await tree();
    const newRow = async () =>
      (await api.post(`${t.blocks[1]}/rows`, {}, { token })).headers.location as string;
    const narrow = await api.post(`${await newRow()}/columns`, { size: 2 }, { token });
    const column = narrow.headers.location as string;
    // Row [0][1] holds 6 + 6: no room. An empty new row has room.
    const full = await api.post(`${column}/move`, { rowId: idOf(t.rows[0][1]) }, { token });
    expect(full.status).toBe(409);
    expect(full.body).toMatchObject({ type: '/problems/row-width-exceeded', availableSize: 0 });
    const row = await newRow();
    const revision = await revisionOf(t);
    const moved = await api.post(`${column}/move`, { rowId: idOf(row) }, { token });
    expect(moved.status).toBe(200);
    expect(moved.headers.location).toBe(`${row}/columns/${idOf(column)}`);
    expect(moved.body).toEqual(narrow.body);
    expect(await revisionOf(t)).toBe(revision + 1);
    // Its contents came along (none) and the width rule holds where it went: 2 of 12.
    expect(await listIds(`${row}/columns`)).toEqual([idOf(column)]);
    await expectAccountsExact(t);
  });

  it('moves a column with its contents, and a row with its columns, to another parent', async () => {
    const t = await tree();
    const emptyRow = (await api.post(`${t.blocks[1]}/rows`, {}, { token })).headers
      .location as string;
    const column = t.columns[0][0][1];
    const columnBefore = (await api.get(column, { token })).body;
    const movedColumn = await api.post(
      `${column}/move`,
      { rowId: idOf(emptyRow), position: 0 },
      { token },
    );
    expect(movedColumn.status).toBe(200);
    expect(movedColumn.body).toEqual(columnBefore);
    const newColumn = movedColumn.headers.location as string;
    expect(await listIds(`${newColumn}/contents`)).toEqual(t.contents[0][0][1].map(idOf));
    expect(await listIds(`${t.rows[0][0]}/columns`)).toEqual([idOf(t.columns[0][0][0])]);

    const row = t.rows[1][0];
    const rowBefore = (await api.get(row, { token })).body;
    const movedRow = await api.post(
      `${row}/move`,
      { blockId: idOf(t.blocks[0]), position: 1 },
      { token },
    );
    expect(movedRow.status).toBe(200);
    expect(movedRow.body).toEqual(rowBefore);
    expect(movedRow.headers.location).toBe(`${t.blocks[0]}/rows/${idOf(row)}`);
    expect(await listIds(`${t.blocks[0]}/rows`)).toEqual(
      [t.rows[0][0], row, t.rows[0][1]].map(idOf),
    );
    expect(await listIds(`${t.blocks[1]}/rows`)).toEqual([t.rows[1][1], emptyRow].map(idOf));
    // The contents beneath it answer at their new paths, and not at the old ones.
    const content = t.contents[1][0][0][2];
    const newPath = content.replace(t.blocks[1], t.blocks[0]);
    expect((await api.get(newPath, { token })).status).toBe(200);
    expect((await api.get(content, { token })).status).toBe(404);
    await expectAccountsExact(t);
  });

  it('moves a block among its project’s blocks; a block’s position is required', async () => {
    const t = await tree();
    const third = (await api.post(`${t.project}/blocks`, { description: 'b2' }, { token })).headers
      .location as string;
    const moved = await api.post(`${third}/move`, { position: 0 }, { token });
    expect([moved.status, moved.headers.location]).toEqual([200, third]);
    expect(await listIds(`${t.project}/blocks`)).toEqual([third, ...t.blocks].map(idOf));
    const missing = await api.post(`${third}/move`, {}, { token });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([{ pointer: '/position', detail: expect.any(String) }]);
    await expectAccountsExact(t);
  });

  it('answers 404 for a parent that is not in the project, whoever owns it, whatever its shape', async () => {
    const t = await tree();
    const other = await tree();
    const stranger = await api.newAccount('stranger');
    const theirs = await buildTree(api, stranger.token, {
      blocks: 1,
      rows: 1,
      columns: [4],
      contents: 1,
    });
    const content = t.contents[0][0][0][0];
    const revision = await revisionOf(t);
    for (const columnId of [
      idOf(other.columns[0][0][0]),
      idOf(theirs.columns[0][0][0]),
      idOf(t.rows[0][0]),
      '0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a83',
      'not-a-uuid',
      "'; DROP TABLE contents; --",
      '',
    ]) {
      const refused = await api.post(`${content}/move`, { columnId }, { token });
      expect([columnId, refused.status, refused.body.type]).toEqual([
        columnId,
        404,
        '/problems/not-found',
      ]);
    }
    // Another account cannot move this content, even into its own column.
    const foreign = await api.post(
      `${content}/move`,
      { columnId: idOf(theirs.columns[0][0][0]) },
      { token: stranger.token },
    );
    expect(foreign.status).toBe(404);
    expect(await revisionOf(t)).toBe(revision);
    // Malformed bodies: a non-string id, a bad position, a member moves do not have.
    for (const body of [{ columnId: 7 }, { position: -1 }, { blockId: 'x' }]) {
      expect((await api.post(`${content}/move`, body, { token })).status).toBe(400);
    }
  });

  it('checks If-Match and If-None-Match against the node’s tag under the lock: 412 with the current tag, and nothing changes', async () => {
    const t = await tree();
    const content = t.contents[0][1][0][0];
    const tag = (await api.get(content, { token })).headers.etag as string;
    await api.put(content, { type: 'text', data: { html: '<p>edited</p>' } }, { token });
    const current = (await api.get(content, { token })).headers.etag as string;
    const revision = await revisionOf(t);

    const stale = await api.post(
      `${content}/move`,
      { columnId: idOf(t.columns[1][0][0]) },
      { token, headers: { 'if-match': tag } },
    );
    expect([stale.status, stale.headers.etag]).toEqual([412, current]);
    expect(await revisionOf(t)).toBe(revision);
    expect((await api.get(content, { token })).status).toBe(200);

    // If-None-Match on a write: `*` (it exists) or its current tag is false, 412 (RFC 9110).
    for (const ifNoneMatch of ['*', current, `"r0", ${current}`]) {
      const refused = await api.post(
        `${content}/move`,
        { columnId: idOf(t.columns[1][0][0]) },
        { token, headers: { 'if-none-match': ifNoneMatch } },
      );
      expect([ifNoneMatch, refused.status, refused.headers.etag]).toEqual([
        ifNoneMatch,
        412,
        current,
      ]);
    }
    expect(await revisionOf(t)).toBe(revision);

    const fresh = await api.post(
      `${content}/move`,
      { columnId: idOf(t.columns[1][0][0]) },
      { token, headers: { 'if-match': current, 'if-none-match': tag } },
    );
    expect(fresh.status).toBe(200);
  });

  it('lets exactly one of concurrent PUTs that only reorder a node with its tag through', async () => {
    const t = await tree();
    const content = t.contents[0][0][0][1];
    const { type } = (await api.get(content, { token })).body as { type: string };
    const reorders = [
      { node: t.blocks[1], body: (position: number) => ({ position }) },
      { node: t.rows[0][1], body: (position: number) => ({ position }) },
      { node: t.columns[0][0][1], body: (position: number) => ({ position }) },
      { node: content, body: (position: number) => ({ type, position }) },
    ];
    for (const { node, body } of reorders) {
      const tag = (await api.get(node, { token })).headers.etag as string;
      const revision = await revisionOf(t);
      // To the top, twice: once one has gone through, the others' tag is stale.
      const answers = await Promise.all(
        [0, 0, 0].map((position) =>
          api.put(node, body(position), { token, headers: { 'if-match': tag } }),
        ),
      );
      expect([node, answers.map((r) => r.status).sort()]).toEqual([node, [200, 412, 412]]);
      const winner = answers.find((r) => r.status === 200)!;
      expect(winner.headers.etag).toBe(`"r${revision + 1}"`);
      expect((await api.get(node, { token })).headers.etag).toBe(winner.headers.etag);
      expect(await revisionOf(t)).toBe(revision + 1);
    }
    await expectAccountsExact(t);
  });

  it('refuses a content into a full column (409 limit-exceeded), and allows one out of it', async () => {
    const t = await tree();
    const full = t.columns[1][1][1];
    const many = Array.from({ length: CONTENTS_PER_COLUMN_MAX }, () => ({ type: 'empty' }));
    expect((await api.put(full, { contents: many }, { token })).status).toBe(200);
    const revision = await revisionOf(t);
    const into = await api.post(
      `${t.contents[0][0][0][0]}/move`,
      { columnId: idOf(full) },
      { token },
    );
    expect([into.status, into.body.type, into.body.limit]).toEqual([
      409,
      '/problems/limit-exceeded',
      CONTENTS_PER_COLUMN_MAX,
    ]);
    expect(await revisionOf(t)).toBe(revision);
    const first = (await api.get(`${full}/contents`, { token })).body[0]._id as string;
    const out = await api.post(
      `${full}/contents/${first}/move`,
      { columnId: idOf(t.columns[0][0][0]) },
      { token },
    );
    expect(out.status).toBe(200);
    await expectAccountsExact(t);
  });

  it('replays a move sent again with the same Idempotency-Key, and does not move twice', async () => {
    const t = await tree();
    const content = t.contents[0][0][1][0];
    const key = { 'idempotency-key': '"move-once-1"' };
    const body = { columnId: idOf(t.columns[0][1][0]), position: 0 };
    const first = await api.post(`${content}/move`, body, { token, headers: key });
    const revision = await revisionOf(t);
    const again = await api.post(`${content}/move`, body, { token, headers: key });
    expect([again.status, again.text, again.headers.location]).toEqual([
      first.status,
      first.text,
      first.headers.location,
    ]);
    expect(await revisionOf(t)).toBe(revision);
    const other = await api.post(`${content}/move`, { position: 1 }, { token, headers: key });
    expect(other.status).toBe(422);
  });

  /** The sort keys of a list, in order, read from the table (a client never sees them). */
  async function sortKeys(table: 'blocks' | 'contents', parent: string, parentId: string) {
    const db = new Client({ connectionString: process.env.LAYOUT_TEST_DATABASE_URL });
    await db.connect();
    try {
      const { rows } = await db.query<{ key: string }>(
        `SELECT sort_key::text AS key FROM ${table} WHERE ${parent} = $1 ORDER BY sort_key`,
        [parentId],
      );
      return rows.map(({ key }) => BigInt(key));
    } finally {
      await db.end();
    }
  }

  it.each([
    ['content', 'contents', 'column_id'],
    ['block', 'blocks', 'project_id'],
  ] as const)(
    'moves a %s into the same gap until its keys run out: the list is renumbered in that move, in the order asked, one revision each',
    async (_level, table, parentColumn) => {
      const t = await tree();
      const list = table === 'contents' ? `${t.columns[0][0][0]}/contents` : `${t.project}/blocks`;
      const parentId = table === 'contents' ? idOf(t.columns[0][0][0]) : t.projectId;
      // The tree has two blocks, a column three contents: three of each.
      if (table === 'blocks') await api.post(list, { description: 'b2' }, { token });
      let order = await listIds(list);
      expect(order).toHaveLength(3);
      const keysBefore = await sortKeys(table, parentColumn, parentId);
      const revision = await revisionOf(t);
      // Each move halves the gap after the first; the keys' gap runs out well before the end.
      const moves = 30;
      for (let i = 0; i < moves; i += 1) {
        const last = order[2];
        const moved = await api.post(`${list}/${last}/move`, { position: 1 }, { token });
        expect(moved.status).toBe(200);
        order = [order[0], last, order[1]];
        expect(await listIds(list)).toEqual(order);
      }
      const keys = await sortKeys(table, parentColumn, parentId);
      // The first never moved: only a renumbering of the list gives it another key.
      expect(keys[0] > keysBefore[0]).toBe(true);
      expect(new Set(keys).size).toBe(keys.length);
      expect(await revisionOf(t)).toBe(revision + moves);
      await expectAccountsExact(t);
    },
  );
});
