import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Api, type Response, startTwoInstances } from '../support/test-app';
import { buildTree, idOf, idsOf, type BuiltTree } from '../support/tree-builder';
import { checkTreeAccounts } from '../support/tree-invariants';

/**
 * Moves and copies with their writers split between two instances on one database: each
 * request one transaction behind the project's lock, so no deadlock, no lost or duplicated
 * node, and every count and size exact when recounted from scratch.
 */
describe('moves and copies on two instances', () => {
  let apps: NestFastifyApplication[];
  let apis: Api[];
  let token: string;

  beforeAll(async () => {
    ({ apps, apis, token } = await startTwoInstances('movers'));
  });
  afterAll(() => Promise.all(apps.map((app) => app.close())));

  /** `calls`, all at once, alternating between the two instances. */
  const both = (calls: ((api: Api) => Promise<Response>)[]) =>
    Promise.all(calls.map((call, i) => call(apis[i % 2])));
  const listIds = async (path: string) => idsOf((await apis[0].get(path, { token })).body);

  async function expectAccountsExact(t: BuiltTree) {
    const answer = await apis[1].get(t.project, { token });
    expect(await checkTreeAccounts(t.projectId)).toEqual({
      mismatches: [],
      storedTreeBytes: Buffer.byteLength(answer.text),
    });
  }

  it('moves contents both ways between two columns at once: no error, none lost or duplicated', async () => {
    const t = await buildTree(apis[0], token, {
      blocks: 2,
      rows: 1,
      columns: [6],
      contents: 12,
    });
    const [a, b] = [t.columns[0][0][0], t.columns[1][0][0]];
    const [fromA, fromB] = [t.contents[0][0][0], t.contents[1][0][0]];
    const start = (await apis[0].get(t.project, { token })).body.revision as number;
    // Each content to the other column, at a position that keeps changing under it.
    const moves = fromA.flatMap((content, i) => [
      (api: Api) => api.post(`${content}/move`, { columnId: idOf(b), position: i % 5 }, { token }),
      (api: Api) =>
        api.post(`${fromB[i]}/move`, { columnId: idOf(a), position: (i * 3) % 7 }, { token }),
    ]);
    const answers = await both(moves);
    expect(answers.map((r) => r.status)).toEqual(moves.map(() => 200));
    expect(answers.map((r) => Number(r.headers['project-revision'])).sort((x, y) => x - y)).toEqual(
      moves.map((_, i) => start + 1 + i),
    );
    const [inA, inB] = [await listIds(`${a}/contents`), await listIds(`${b}/contents`)];
    expect([...inA].sort()).toEqual(fromB.map(idOf).sort());
    expect([...inB].sort()).toEqual(fromA.map(idOf).sort());
    // Each answered the path it ended at, and its tag there.
    for (const r of answers) {
      const there = await apis[1].get(r.headers.location as string, { token });
      expect([there.status, there.headers.etag]).toEqual([200, r.headers.etag]);
    }
    await expectAccountsExact(t);
  });

  it('moves rows both ways between two blocks, and columns both ways between two rows, at once', async () => {
    const t = await buildTree(apis[0], token, {
      blocks: 2,
      rows: 4,
      columns: [3, 3],
      contents: 2,
    });
    // Rows [0][0..3] go to block 1 and rows [1][0..3] to block 0; the columns of rows [0][0]
    // and [1][0] swap rows (3 + 3 each side: always room, even halfway).
    const rowMoves = t.rows[0].flatMap((row, i) => [
      (api: Api) => api.post(`${row}/move`, { blockId: idOf(t.blocks[1]), position: 0 }, { token }),
      (api: Api) => api.post(`${t.rows[1][i]}/move`, { blockId: idOf(t.blocks[0]) }, { token }),
    ]);
    const answers = await both(rowMoves);
    expect(answers.map((r) => r.status)).toEqual(rowMoves.map(() => 200));
    expect([...(await listIds(`${t.blocks[0]}/rows`))].sort()).toEqual(t.rows[1].map(idOf).sort());
    expect([...(await listIds(`${t.blocks[1]}/rows`))].sort()).toEqual(t.rows[0].map(idOf).sort());

    const rowA = `${t.blocks[1]}/rows/${idOf(t.rows[0][0])}`;
    const rowB = `${t.blocks[0]}/rows/${idOf(t.rows[1][0])}`;
    const columnsOf = async (row: string) => listIds(`${row}/columns`);
    const [columnsA, columnsB] = [await columnsOf(rowA), await columnsOf(rowB)];
    const columnMoves = columnsA.flatMap((column, i) => [
      (api: Api) => api.post(`${rowA}/columns/${column}/move`, { rowId: idOf(rowB) }, { token }),
      (api: Api) =>
        api.post(`${rowB}/columns/${columnsB[i]}/move`, { rowId: idOf(rowA) }, { token }),
    ]);
    const moved = await both(columnMoves);
    // A row holds 6 of 12 at most on the way: every move fits.
    expect(moved.map((r) => r.status)).toEqual(columnMoves.map(() => 200));
    expect([...(await columnsOf(rowA))].sort()).toEqual([...columnsB].sort());
    expect([...(await columnsOf(rowB))].sort()).toEqual([...columnsA].sort());
    await expectAccountsExact(t);
  });

  it('keeps the row width when columns race into one row from both instances', async () => {
    const t = await buildTree(apis[0], token, { blocks: 1, rows: 1, columns: [], contents: 0 });
    const target = (await apis[0].post(`${t.blocks[0]}/rows`, {}, { token })).headers
      .location as string;
    const sources: string[] = [];
    for (let i = 0; i < 8; i++) {
      const row = (await apis[0].post(`${t.blocks[0]}/rows`, {}, { token })).headers
        .location as string;
      sources.push(
        (await apis[0].post(`${row}/columns`, { size: 3 }, { token })).headers.location as string,
      );
    }
    const answers = await both(
      sources.map(
        (column) => (api: Api) => api.post(`${column}/move`, { rowId: idOf(target) }, { token }),
      ),
    );
    // 4 × 3 fill the row; the other four find no room, whichever instance they came through.
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 409, 409, 409, 409]);
    for (const r of answers.filter((answer) => answer.status === 409)) {
      expect(r.body.availableSize).toBe(0);
    }
    expect(await listIds(`${target}/columns`)).toHaveLength(4);
    await expectAccountsExact(t);
  });

  it('lets a move racing the delete of its target land before it (and go with it) or answer 404', async () => {
    const t = await buildTree(apis[0], token, { blocks: 1, rows: 2, columns: [2], contents: 10 });
    const source = t.columns[0][0][0];
    const targets: string[] = [];
    for (let i = 0; i < 10; i++) {
      targets.push(
        (await apis[0].post(`${t.rows[0][1]}/columns`, { size: 1 }, { token })).headers
          .location as string,
      );
    }
    const contents = t.contents[0][0][0];
    const move = (i: number) => (api: Api) =>
      api.post(`${contents[i]}/move`, { columnId: idOf(targets[i]) }, { token });
    const remove = (i: number) => (api: Api) => api.delete(targets[i], { token });
    // Each pair in both orders, so that each instance sends both kinds, first and second.
    const answers = await both(
      contents.flatMap((_, i) => (i % 2 ? [remove(i), move(i)] : [move(i), remove(i)])),
    );
    const outcomes = contents.map((content, i) => ({
      content,
      moved: answers[2 * i + (i % 2)].status,
      deleted: answers[2 * i + 1 - (i % 2)].status,
    }));
    const left = await listIds(`${source}/contents`);
    for (const { content, moved, deleted } of outcomes) {
      expect(deleted).toBe(204);
      expect([200, 404]).toContain(moved);
      // Landed first: gone with its column. Refused: still where it was, and only there.
      expect(left.includes(idOf(content))).toBe(moved === 404);
      expect((await apis[1].get(content, { token })).status).toBe(moved === 404 ? 200 : 404);
    }
    expect(await listIds(`${t.rows[0][1]}/columns`)).toEqual([idOf(t.columns[0][1][0])]);
    await expectAccountsExact(t);
  });

  it('keeps every count and size exact through a storm of moves, copies and deletes at every level', async () => {
    const t = await buildTree(apis[0], token, {
      blocks: 3,
      rows: 2,
      columns: [4, 4],
      contents: 3,
    });
    const storm: ((api: Api) => Promise<Response>)[] = [
      (api) => api.post(`${t.blocks[0]}/duplicate`, {}, { token }),
      (api) => api.post(`${t.blocks[2]}/move`, { position: 0 }, { token }),
      (api) => api.post(`${t.rows[0][0]}/duplicate`, { blockId: idOf(t.blocks[1]) }, { token }),
      (api) => api.post(`${t.rows[1][1]}/move`, { blockId: idOf(t.blocks[2]) }, { token }),
      (api) =>
        api.post(`${t.columns[2][0][0]}/duplicate`, { rowId: idOf(t.rows[2][1]) }, { token }),
      (api) => api.post(`${t.columns[2][1][1]}/move`, { rowId: idOf(t.rows[0][1]) }, { token }),
      (api) => api.post(`${t.contents[0][0][0][0]}/duplicate`, { position: 0 }, { token }),
      (api) =>
        api.post(
          `${t.contents[0][1][1][2]}/move`,
          { columnId: idOf(t.columns[2][1][0]) },
          { token },
        ),
      (api) => api.delete(t.contents[2][0][1][1], { token }),
      (api) => api.post(`${t.project}/duplicate`, {}, { token }),
      (api) => api.put(t.columns[1][0][0], { size: 2 }, { token }),
      (api) =>
        api.post(`${t.columns[1][0][1]}/contents`, { type: 'empty', position: 1 }, { token }),
    ];
    const answers = await both(storm);
    expect(answers.map((r) => (r.status < 300 ? 'done' : r.text))).toEqual(storm.map(() => 'done'));
    await expectAccountsExact(t);
    const copy = answers[9].body._id as string;
    expect(await checkTreeAccounts(copy)).toMatchObject({ mismatches: [] });
  });
});
