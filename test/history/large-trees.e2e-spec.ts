import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { CONTENTS_PER_COLUMN_MAX, ROWS_PER_BLOCK_MAX } from '@layout/contracts';
import { Api, createLayout, type Response, startTestApp } from '../support/test-app';

/**
 * CONTRACT.md, part two, "History and undo" beside "Limits": writes and undo work in trees as
 * large as the limits allow, their cost growing with what they change, not with the siblings
 * or the project. On plans that looked a node up once per sibling (a restore's), or once per
 * open version of the project (the history of a delete), the undo of one change in a block of
 * 500 rows and the delete of a block of 4 000 nodes outran the database's deadline: 503.
 */
describe('writes and restores of trees as large as the limits allow', () => {
  let app: NestFastifyApplication;
  let api: Api;
  let token: string;

  beforeAll(async () => {
    app = await startTestApp();
    api = new Api(app);
    ({ token } = await api.newAccount('large-trees'));
  });
  afterAll(() => app.close());

  const ok = (response: Response, status = 200) => {
    if (response.status !== status) {
      throw new Error(`expected ${status}, got ${response.status}: ${response.text}`);
    }
    return response;
  };

  /** The project's blocks as a read shows them: what a restore must bring back. */
  const blocksOf = async (project: string) =>
    JSON.stringify(ok(await api.get(project, { token })).body.blocks);

  it('undoes a change, and a restore far back, in a block holding the most rows it may', async () => {
    const { project, block } = await createLayout(api, token);
    const rows = `${block}/rows`;
    // Half the rows, then the state to come back to, then the rest: ten at a time, as editors do.
    const addRows = async (count: number) => {
      for (let made = 0; made < count; made += 10) {
        const batch = Array.from({ length: Math.min(10, count - made) }, () =>
          api.post(rows, {}, { token }),
        );
        for (const answer of await Promise.all(batch)) ok(answer, 201);
      }
    };
    await addRows(ROWS_PER_BLOCK_MAX / 2 - 1);
    const halfway = ok(await api.get(project, { token })).body.revision as number;
    const halfwayBlocks = await blocksOf(project);
    await addRows(ROWS_PER_BLOCK_MAX / 2);
    const full = await blocksOf(project);
    expect(JSON.parse(full)[0].rows).toHaveLength(ROWS_PER_BLOCK_MAX);

    const edited = ok(await api.put(block, { description: 'Changed' }, { token }));
    const revision = Number(edited.headers['project-revision']);
    const undone = ok(
      await api.post(`${project}/revisions/${revision - 1}/restore`, undefined, {
        token,
        headers: { 'if-match': `"r${revision}"` },
      }),
    );
    expect(undone.body.revision).toBe(revision + 1);
    expect(await blocksOf(project)).toBe(full);

    // Far back: half the rows go; then forward again, and every row comes back with its id.
    ok(await api.post(`${project}/revisions/${halfway}/restore`, undefined, { token }));
    expect(await blocksOf(project)).toBe(halfwayBlocks);
    ok(await api.post(`${project}/revisions/${revision + 1}/restore`, undefined, { token }));
    expect(await blocksOf(project)).toBe(full);
  });

  it('deletes, undoes, edits, reorders, copies and deletes again in a project of 16 000 nodes', async () => {
    const { project, block, row } = await createLayout(api, token);
    ok(await api.delete(`${row}`, { token }), 204);
    const rowId = ok(await api.post(`${block}/rows`, {}, { token }), 201).body._id as string;
    const contents = Array.from({ length: CONTENTS_PER_COLUMN_MAX }, (_, i) => ({
      type: 'text',
      data: { html: `<p>${i}</p>` },
    }));
    for (let column = 0; column < 4; column++) {
      ok(await api.post(`${block}/rows/${rowId}/columns`, { size: 3, contents }, { token }), 201);
    }
    for (let copy = 0; copy < 3; copy++)
      ok(await api.post(`${block}/duplicate`, {}, { token }), 201);
    const before = ok(await api.get(project, { token }));
    const blocks = before.body.blocks as { _id: string; rows: { columns: unknown[] }[] }[];
    expect(blocks).toHaveLength(4);

    const gone = `${project}/blocks/${blocks[1]._id}`;
    const deleted = ok(await api.delete(gone, { token }), 204);
    const revision = Number(deleted.headers['project-revision']);
    ok(await api.get(gone, { token }), 404);
    ok(
      await api.post(`${project}/revisions/${revision - 1}/restore`, undefined, {
        token,
        headers: { 'if-match': `"r${revision}"` },
      }),
    );
    expect(await blocksOf(project)).toBe(JSON.stringify(before.body.blocks));

    // A node of a copy: its version was written with the copy's thousands, and is closed alone.
    const copy = ok(await api.get(`${project}/blocks/${blocks[3]._id}`, { token })).body as {
      rows: { _id: string; columns: { _id: string; contents: { _id: string }[] }[] }[];
    };
    const column = copy.rows[0].columns[2];
    const content = `${project}/blocks/${blocks[3]._id}/rows/${copy.rows[0]._id}/columns/${column._id}/contents/${column.contents[500]._id}`;
    ok(await api.put(content, { type: 'text', data: { html: '<p>edited</p>' } }, { token }));
    expect(ok(await api.get(content, { token })).body.data).toEqual({ html: '<p>edited</p>' });

    // A column's 1 000 contents put in the reverse order in one PUT, and a row of 4 000 nodes
    // copied and the copy undone: each changes what it names, whatever the project holds.
    const columnPath = content.slice(0, content.indexOf('/contents/'));
    const reversed = column.contents.map(({ _id }) => ({ _id, type: 'text' })).reverse();
    const put = ok(await api.put(columnPath, { contents: reversed }, { token }));
    expect((put.body.contents as { _id: string }[]).map(({ _id }) => _id)).toEqual(
      reversed.map(({ _id }) => _id),
    );
    const rowPath = columnPath.slice(0, columnPath.indexOf('/columns/'));
    const unchanged = await blocksOf(project);
    const copied = ok(await api.post(`${rowPath}/duplicate`, {}, { token }), 201);
    const copyRevision = Number(copied.headers['project-revision']);
    ok(
      await api.post(`${project}/revisions/${copyRevision - 1}/restore`, undefined, {
        token,
        headers: { 'if-match': `"r${copyRevision}"` },
      }),
    );
    expect(await blocksOf(project)).toBe(unchanged);

    // And the project goes whole, its history with it.
    ok(await api.delete(project, { token }), 204);
    ok(await api.get(`${project}/revisions`, { token }), 404);
  });
});
