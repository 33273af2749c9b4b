import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { ROW_WIDTH } from '@layout/contracts';
import { changeRevisions, openEventStream } from '../support/event-stream-client';
import { type Api, type Response, startTwoInstances } from '../support/test-app';
import { buildTree, idOf, idsOf } from '../support/tree-builder';
import { checkTreeAccounts } from '../support/tree-invariants';

/**
 * Batches beside single writes, on two instances of one database: a batch takes the project's
 * lock as one write, so every rule of part two holds across both (revisions without a gap, row
 * widths, dense lists, exact counts), one batch is one change event and one undo step.
 */
describe('batches on two instances', () => {
  let apps: NestFastifyApplication[];
  let apis: Api[];
  let token: string;

  beforeAll(async () => {
    ({ apps, apis, token } = await startTwoInstances('batches-two'));
  });
  afterAll(() => Promise.all(apps.map((app) => app.close())));

  it('keeps revisions dense, rows within their width and lists dense under concurrent batches and single writes', async () => {
    const t = await buildTree(apis[0], token, { blocks: 1, rows: 2, columns: [4, 4], contents: 2 });
    const start = (await apis[1].get(t.project, { token })).body.revision as number;
    const [rowA, rowB] = t.rows[0];
    // Each batch adds a column of 2 to row A and moves a content; each single write adds a
    // column of 2 to row A or resizes one of its columns: only some fit, from either instance.
    const writes: (() => Promise<Response>)[] = [];
    for (let i = 0; i < 12; i++) {
      const api = apis[i % 2];
      if (i % 3 === 0) {
        writes.push(() =>
          api.post(
            `${t.project}/batch`,
            {
              operations: [
                { method: 'POST', path: `${rowA}/columns`, body: { size: 2 } },
                {
                  method: 'POST',
                  path: `${t.contents[0][1][0][i % 2]}/move`,
                  body: { columnId: idOf(t.columns[0][1][1]), position: 0 },
                },
              ],
            },
            { token },
          ),
        );
      } else if (i % 3 === 1) {
        writes.push(() => api.post(`${rowA}/columns`, { size: 2 }, { token }));
      } else {
        writes.push(() => api.put(t.columns[0][0][0], { size: 2 + (i % 4) }, { token }));
      }
    }
    const answers = await Promise.all(writes.map((write) => write()));

    expect(answers.every((a) => [200, 201, 409].includes(a.status))).toBe(true);
    const revisions = answers
      .filter((a) => a.status < 300)
      .map((a) => Number(a.headers['project-revision']));
    const after = (await apis[0].get(t.project, { token })).body;
    // Every successful write made one revision; together they fill the gap without a repeat.
    // (A resize to the size a column has already changes nothing: it answers the current one.)
    const made = [...new Set(revisions)].sort((a, b) => a - b);
    expect(made).toEqual(Array.from({ length: after.revision - start }, (_, i) => start + 1 + i));
    const history = (await apis[1].get(`${t.project}/revisions?limit=100`, { token })).body as {
      revision: number;
    }[];
    expect(history.map((h) => h.revision)).toEqual(
      Array.from({ length: after.revision }, (_, i) => after.revision - i),
    );
    for (const row of [rowA, rowB]) {
      const columns = (await apis[0].get(`${row}/columns`, { token })).body as { size: string }[];
      expect(columns.reduce((sum, c) => sum + Number(c.size), 0)).toBeLessThanOrEqual(ROW_WIDTH);
    }
    expect(await checkTreeAccounts(t.projectId)).toMatchObject({ mismatches: [] });
  });

  it('is one change event on every instance, and one undo step', async () => {
    const t = await buildTree(apis[0], token, { blocks: 1, rows: 1, columns: [6, 6], contents: 1 });
    const before = (await apis[0].get(t.project, { token })).body;
    const streams = await Promise.all(
      apis.map((api) =>
        openEventStream(`${api.baseUrl}${t.project}/events`, {
          authorization: `Bearer ${token}`,
          'last-event-id': String(before.revision),
        }),
      ),
    );
    try {
      const answer = await apis[0].post(
        `${t.project}/batch`,
        {
          operations: [
            { method: 'PUT', path: t.columns[0][0][0], body: { size: 3 } },
            { method: 'POST', path: `${t.rows[0][0]}/columns`, body: { size: 3 } },
            { method: 'DELETE', path: t.contents[0][0][1][0] },
          ],
        },
        { token },
      );
      expect(answer.status).toBe(200);
      const revision = before.revision + 1;
      for (const stream of streams) {
        await stream.waitFor((events) => changeRevisions(events).includes(revision), 'the batch');
        expect(changeRevisions(stream.events)).toEqual([revision]);
        const change = stream.events.find((e) => e.event === 'change');
        expect(JSON.parse(change!.data)).toMatchObject({ operation: 'batch', path: t.project });
      }

      const undo = await apis[1].post(
        `${t.project}/revisions/${before.revision}/restore`,
        undefined,
        {
          token,
          headers: { 'if-match': `"r${revision}"` },
        },
      );
      expect(undo.status).toBe(200);
      const restored = (await apis[0].get(t.project, { token })).body;
      expect(restored.blocks).toEqual(before.blocks);
      expect(idsOf(restored.blocks[0].rows[0].columns)).toEqual(
        idsOf(before.blocks[0].rows[0].columns),
      );
    } finally {
      streams.forEach((stream) => stream.close());
    }
  });
});
