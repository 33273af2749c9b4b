import { jest } from '@jest/globals';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import {
  CONTENTS_PER_COLUMN_MAX,
  DUPLICATE_NODES_MAX,
  PROJECT_TREE_MAX_BYTES,
  TITLE_MAX_LENGTH,
} from '@layout/contracts';
import { quoteOf } from '../support/big-contents';
import { Api, startTestApp } from '../support/test-app';
import {
  allIds,
  buildTree,
  changedTags,
  idOf,
  idsOf,
  tagsOf,
  type BuiltTree,
  withoutIds,
} from '../support/tree-builder';
import { checkTreeAccounts } from '../support/tree-invariants';

/**
 * CONTRACT part two, "Duplicating a node": a copy of a subtree, new ids everywhere, values and
 * order kept, in one transaction and a fixed number of statements, within the limits.
 */
describe('duplicating a node', () => {
  let app: NestFastifyApplication;
  let api: Api;
  let token: string;

  beforeAll(async () => {
    app = await startTestApp();
    api = new Api(app);
    ({ token } = await api.newAccount('copier'));
  });
  afterAll(() => app.close());

  const revisionOf = async (t: BuiltTree) =>
    (await api.get(t.project, { token })).body.revision as number;
  const listIds = async (path: string) => idsOf((await api.get(path, { token })).body);

  async function expectAccountsExact(projectId: string, project = `/projects/${projectId}`) {
    const answer = await api.get(project, { token });
    expect(await checkTreeAccounts(projectId)).toEqual({
      mismatches: [],
      storedTreeBytes: Buffer.byteLength(answer.text),
    });
  }

  /** The statements the service sends to PostgreSQL while `request` runs (this process only). */
  async function statementsOf(request: () => Promise<unknown>): Promise<number> {
    const query = jest.spyOn(Client.prototype, 'query');
    try {
      await request();
      return query.mock.calls.length;
    } finally {
      query.mockRestore();
    }
  }

  it('copies a block of 5 rows × 3 columns × 20 contents right after it: new ids, the same values in the same order', async () => {
    const t = await buildTree(api, token, {
      blocks: 2,
      rows: 5,
      columns: [4, 4, 4],
      contents: 20,
    });
    const original = await api.get(t.blocks[0], { token });
    const revision = await revisionOf(t);

    const copy = await api.post(`${t.blocks[0]}/duplicate`, {}, { token });

    expect(copy.status).toBe(201);
    expect(copy.headers['project-revision']).toBe(String(revision + 1));
    expect(copy.headers.etag).toBe(`"r${revision + 1}"`);
    expect(copy.headers.location).toBe(`${t.project}/blocks/${copy.body._id}`);
    expect(withoutIds(copy.body)).toEqual(withoutIds(original.body));
    const copiedIds = allIds(copy.body);
    expect(copiedIds).toHaveLength(1 + 5 + 15 + 300);
    expect(new Set(copiedIds).size).toBe(copiedIds.length);
    expect(copiedIds.filter((id) => allIds(original.body).includes(id))).toEqual([]);
    // UUIDv7 like every id the service makes (version 7, variant 10).
    for (const id of copiedIds)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // Right after the original, and readable like any block.
    expect(await listIds(`${t.project}/blocks`)).toEqual([
      idOf(t.blocks[0]),
      copy.body._id,
      idOf(t.blocks[1]),
    ]);
    const read = await api.get(copy.headers.location as string, { token });
    expect([read.body, read.headers.etag]).toEqual([copy.body, copy.headers.etag]);
    // The original is untouched, its tag too.
    const again = await api.get(t.blocks[0], { token });
    expect([again.body, again.headers.etag]).toEqual([original.body, original.headers.etag]);
    await expectAccountsExact(t.projectId);
  });

  it('copies a subtree in a fixed number of statements, whatever its size', async () => {
    const small = await buildTree(api, token, { blocks: 1, rows: 1, columns: [4], contents: 1 });
    const large = await buildTree(api, token, {
      blocks: 1,
      rows: 5,
      columns: [4, 4, 4],
      contents: 20,
    });
    // Once, so that the token is known to this instance (it keeps verified tokens a while).
    await api.get(small.project, { token });
    const counts: number[] = [];
    for (const block of [small.blocks[0], large.blocks[0], small.blocks[0], large.blocks[0]]) {
      counts.push(
        await statementsOf(async () => {
          expect((await api.post(`${block}/duplicate`, {}, { token })).status).toBe(201);
        }),
      );
    }
    expect(counts[0]).toBeGreaterThan(0);
    expect(new Set(counts).size).toBe(1);
    // The lock, the place right after the original, the copy and its document, and the
    // transaction's own: a handful, not one per node (the large one has 321).
    expect(counts[0]).toBeLessThanOrEqual(10);
  });

  it('changes the tags of the destination’s path and no other; the original keeps its own', async () => {
    const t = await buildTree(api, token, { blocks: 2, rows: 2, columns: [4], contents: 2 });
    const before = await tagsOf(api, token, t.project);
    const row = t.rows[0][1];
    const copy = await api.post(`${row}/duplicate`, { blockId: idOf(t.blocks[1]) }, { token });
    expect(copy.status).toBe(201);
    expect(copy.headers.location).toBe(`${t.blocks[1]}/rows/${copy.body._id}`);
    const after = await tagsOf(api, token, t.project);
    expect(changedTags(before, after).sort()).toEqual(
      [t.project, `${t.project}/blocks`, t.blocks[1], `${t.blocks[1]}/rows`].sort(),
    );
    // At the end of the other block, since it left its own.
    expect(await listIds(`${t.blocks[1]}/rows`)).toEqual([...t.rows[1].map(idOf), copy.body._id]);
    await expectAccountsExact(t.projectId);
  });

  it('places a copy at a position, in its own parent or another, and copies contents alone', async () => {
    const t = await buildTree(api, token, { blocks: 1, rows: 2, columns: [4, 4], contents: 3 });
    const content = t.contents[0][0][0][2];
    const first = await api.post(`${content}/duplicate`, { position: 0 }, { token });
    expect(first.status).toBe(201);
    expect(withoutIds(first.body)).toEqual(withoutIds((await api.get(content, { token })).body));
    const column = t.columns[0][0][0];
    expect(await listIds(`${column}/contents`)).toEqual([
      first.body._id,
      ...t.contents[0][0][0].map(idOf),
    ]);
    const target = t.columns[0][1][1];
    const elsewhere = await api.post(
      `${content}/duplicate`,
      { columnId: idOf(target), position: 1 },
      { token },
    );
    expect(elsewhere.headers.location).toBe(`${target}/contents/${elsewhere.body._id}`);
    expect((await listIds(`${target}/contents`))[1]).toBe(elsewhere.body._id);
    // No body at all: right after the original.
    const noBody = await api.request('POST', `${t.contents[0][0][0][0]}/duplicate`, { token });
    expect(noBody.status).toBe(201);
    expect((await listIds(`${column}/contents`)).slice(1, 3)).toEqual([
      idOf(t.contents[0][0][0][0]),
      noBody.body._id,
    ]);
    await expectAccountsExact(t.projectId);
  });

  it('refuses a column copy that does not fit its row (409 availableSize) and creates nothing', async () => {
    const t = await buildTree(api, token, { blocks: 1, rows: 2, columns: [8], contents: 2 });
    const revision = await revisionOf(t);
    const refused = await api.post(`${t.columns[0][0][0]}/duplicate`, {}, { token });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ type: '/problems/row-width-exceeded', availableSize: 4 });
    expect(await revisionOf(t)).toBe(revision);
    expect(await listIds(`${t.rows[0][0]}/columns`)).toEqual([idOf(t.columns[0][0][0])]);
    // Into a row with room it goes, with its contents.
    const row = (await api.post(`${t.blocks[0]}/rows`, {}, { token })).headers.location as string;
    const copy = await api.post(`${t.columns[0][0][0]}/duplicate`, { rowId: idOf(row) }, { token });
    expect(copy.status).toBe(201);
    expect(copy.body.contents).toHaveLength(2);
    await expectAccountsExact(t.projectId);
  });

  it('refuses a copy into a full column, or one that takes the project past 8 MiB', async () => {
    const t = await buildTree(api, token, { blocks: 1, rows: 1, columns: [4, 4], contents: 1 });
    const full = t.columns[0][0][1];
    const many = Array.from({ length: CONTENTS_PER_COLUMN_MAX }, () => ({ type: 'empty' }));
    expect((await api.put(full, { contents: many }, { token })).status).toBe(200);
    const into = await api.post(
      `${t.contents[0][0][0][0]}/duplicate`,
      { columnId: idOf(full) },
      { token },
    );
    expect([into.status, into.body.limit]).toEqual([409, CONTENTS_PER_COLUMN_MAX]);

    // A block of about 5 MiB has no room for a copy of itself in an 8 MiB project.
    const big = (await api.post(`${t.project}/blocks`, { description: 'big' }, { token })).headers
      .location as string;
    const row = (await api.post(`${big}/rows`, {}, { token })).headers.location as string;
    const column = (await api.post(`${row}/columns`, { size: 12 }, { token })).headers
      .location as string;
    for (let i = 0; i < 20; i++) {
      expect((await api.post(`${column}/contents`, quoteOf(250_000), { token })).status).toBe(201);
    }
    const revision = await revisionOf(t);
    const tooBig = await api.post(`${big}/duplicate`, {}, { token });
    expect([tooBig.status, tooBig.body.limit]).toEqual([409, PROJECT_TREE_MAX_BYTES]);
    expect(await revisionOf(t)).toBe(revision);
    await expectAccountsExact(t.projectId);
  }, 60_000);

  it('refuses a copy of more than 20 000 nodes, of a block or of a project, and creates nothing', async () => {
    // 21 columns of 1 000 empty contents, one request each: 21 025 nodes in one block.
    const t = await buildTree(api, token, { blocks: 1, rows: 1, columns: [], contents: 0 });
    const many = Array.from({ length: CONTENTS_PER_COLUMN_MAX }, () => ({ type: 'empty' }));
    for (let r = 0; r < 3; r++) {
      const row = (await api.post(`${t.blocks[0]}/rows`, {}, { token })).headers.location as string;
      for (let c = 0; c < 7; c++) {
        const created = await api.post(`${row}/columns`, { size: 1, contents: many }, { token });
        expect(created.status).toBe(201);
      }
    }
    const revision = await revisionOf(t);
    const block = await api.post(`${t.blocks[0]}/duplicate`, {}, { token });
    expect([block.status, block.body.type, block.body.limit]).toEqual([
      409,
      '/problems/limit-exceeded',
      DUPLICATE_NODES_MAX,
    ]);
    const project = await api.post(`${t.project}/duplicate`, {}, { token });
    expect([project.status, project.body.limit]).toEqual([409, DUPLICATE_NODES_MAX]);
    expect(await revisionOf(t)).toBe(revision);
    expect(await listIds(`${t.project}/blocks`)).toEqual([idOf(t.blocks[0])]);
  }, 60_000);

  describe('a project', () => {
    it('copies the whole tree into a new project at revision 1, titled "(copy)", and leaves the original as it was', async () => {
      const t = await buildTree(
        api,
        token,
        { blocks: 2, rows: 2, columns: [6, 6], contents: 2 },
        'Proposal for ACME',
      );
      await api.put(t.project, { title: 'Proposal for ACME' }, { token });
      const original = await api.get(t.project, { token });
      const copy = await api.post(`${t.project}/duplicate`, {}, { token });
      expect(copy.status).toBe(201);
      expect(copy.headers.location).toBe(`/projects/${copy.body._id}`);
      expect([copy.headers.etag, copy.headers['project-revision']]).toEqual(['"r1"', '1']);
      expect(copy.body).toMatchObject({ title: 'Proposal for ACME (copy)', revision: 1 });
      expect(withoutIds(copy.body.blocks)).toEqual(withoutIds(original.body.blocks));
      expect(allIds(copy.body).filter((id) => allIds(original.body).includes(id))).toEqual([]);
      const read = await api.get(copy.headers.location as string, { token });
      expect([read.body, read.headers.etag]).toEqual([copy.body, '"r1"']);
      const after = await api.get(t.project, { token });
      expect([after.text, after.headers.etag]).toEqual([original.text, original.headers.etag]);
      await expectAccountsExact(copy.body._id as string);
      // It is a project like any other: listed, and writable.
      const listed = await api.get('/projects?limit=100', { token });
      expect(idsOf(listed.body)).toContain(copy.body._id);
      const block = await api.post(
        `/projects/${copy.body._id}/blocks`,
        { description: 'x' },
        { token },
      );
      expect(block.headers['project-revision']).toBe('2');
    });

    it('takes the title given, cuts a long one to fit " (copy)", and checks If-Match and If-None-Match on the original', async () => {
      const long = 'T'.repeat(TITLE_MAX_LENGTH);
      const t = await buildTree(api, token, { blocks: 1, rows: 0, columns: [], contents: 0 }, long);
      const cut = await api.post(`${t.project}/duplicate`, {}, { token });
      expect(cut.body.title).toBe(`${'T'.repeat(TITLE_MAX_LENGTH - 7)} (copy)`);
      const named = await api.post(`${t.project}/duplicate`, { title: 'Second draft' }, { token });
      expect(named.body.title).toBe('Second draft');
      const stale = await api.post(
        `${t.project}/duplicate`,
        {},
        {
          token,
          headers: { 'if-match': '"r0"' },
        },
      );
      const current = (await api.get(t.project, { token })).headers.etag as string;
      expect([stale.status, stale.headers.etag]).toEqual([412, current]);
      const exists = await api.post(
        `${t.project}/duplicate`,
        {},
        {
          token,
          headers: { 'if-none-match': '*' },
        },
      );
      expect([exists.status, exists.headers.etag]).toEqual([412, current]);
      const block = await api.post(
        `${t.blocks[0]}/duplicate`,
        {},
        {
          token,
          headers: {
            'if-none-match': (await api.get(t.blocks[0], { token })).headers.etag as string,
          },
        },
      );
      expect(block.status).toBe(412);
      expect((await api.post(`${t.project}/duplicate`, { title: '' }, { token })).status).toBe(400);
    });

    it('is another account’s project for nobody else: 404', async () => {
      const t = await buildTree(api, token, { blocks: 1, rows: 1, columns: [4], contents: 1 });
      const stranger = await api.newAccount('copycat');
      const refused = await api.post(`${t.project}/duplicate`, {}, { token: stranger.token });
      expect(refused.status).toBe(404);
      expect(idsOf((await api.get('/projects', { token: stranger.token })).body)).toEqual([]);
    });
  });
});
