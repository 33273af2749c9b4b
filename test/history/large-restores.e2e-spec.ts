import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { ROWS_PER_BLOCK_MAX } from '@layout/contracts';
import { Api, createLayout, type Response, startTestApp } from '../support/test-app';

/**
 * CONTRACT.md, part two, "History and undo" beside "Limits": undo works in a list as long as the
 * limits allow. A restore rewrites a level of the tree in one statement; on plans that looked a
 * node up once per sibling, the undo of one change in a block of 500 rows outran the database's
 * deadline and answered 503.
 */
describe('restores of the longest lists the limits allow', () => {
  let app: NestFastifyApplication;
  let api: Api;
  let token: string;

  beforeAll(async () => {
    app = await startTestApp();
    api = new Api(app);
    ({ token } = await api.newAccount('large-restores'));
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
});
