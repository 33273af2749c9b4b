import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { buildTree } from '../support/tree-builder';
import { checkTreeAccounts } from '../support/tree-invariants';
import { Api, type Response, startTwoInstances } from '../support/test-app';

/**
 * Restores and undos racing other writers, on two instances: the history stays exact (every
 * revision's past state is what a reader saw at that revision), the tree's counters hold, and an
 * undo guarded by a tag lets exactly one of its racers through.
 */
describe('history under concurrent writes on two instances', () => {
  let apps: NestFastifyApplication[];
  let apis: Api[];
  let token: string;

  beforeAll(async () => {
    ({ apps, apis, token } = await startTwoInstances('history-race'));
  });
  afterAll(() => Promise.all(apps.map((app) => app.close())));

  it('keeps every past state exact while restores and writes interleave', async () => {
    const tree = await buildTree(apis[0], token, {
      blocks: 2,
      rows: 2,
      columns: [6, 6],
      contents: 2,
    });
    const start = (await apis[0].get(tree.project, { token })).body.revision as number;
    const contents = tree.contents.flat(3);
    const columns = tree.columns.flat(2);
    const id = (path: string) => path.split('/').pop() as string;
    const calls: ((api: Api) => Promise<Response>)[] = [];
    for (let i = 0; i < 12; i++) {
      calls.push((api) =>
        api.put(contents[i % contents.length], { type: i % 2 ? 'quote' : 'empty' }, { token }),
      );
      calls.push((api) =>
        api.post(
          `${columns[(i + 1) % columns.length]}/contents`,
          { type: 'text', data: { html: `<p>${i}</p>` } },
          { token },
        ),
      );
      calls.push((api) =>
        api.post(`${tree.project}/revisions/${start + i}/restore`, undefined, { token }),
      );
    }
    calls.push((api) => api.post(`${contents[0]}/move`, { columnId: id(columns[3]) }, { token }));
    const answers = await Promise.all(calls.map((call, i) => call(apis[i % 2])));
    // A write may find its node gone after a restore (404) or moved (404): never a 5xx.
    for (const answer of answers) expect([200, 201, 404]).toContain(answer.status);
    const restores = answers.filter((a, i) => i % 3 === 2 && a.status === 200);
    expect(restores.length).toBeGreaterThan(0);

    const current = await apis[1].get(tree.project, { token });
    const end = current.body.revision as number;
    // Every revision has one entry and a past state; the last one is the project as it reads.
    const listed = (await apis[0].get(`${tree.project}/revisions?limit=100`, { token })).body as {
      revision: number;
    }[];
    expect(listed.map((r) => r.revision)).toEqual(Array.from({ length: end }, (_, i) => end - i));
    expect((await apis[1].get(`${tree.project}/revisions/${end}`, { token })).text).toBe(
      current.text,
    );
    // Each restore's answer is the project as it then was, and its past state too.
    for (const restore of restores) {
      const revision = restore.body.revision as number;
      expect((await apis[0].get(`${tree.project}/revisions/${revision}`, { token })).text).toBe(
        restore.text,
      );
    }
    const accounts = await checkTreeAccounts(tree.projectId);
    expect(accounts.mismatches).toEqual([]);
    expect(accounts.storedTreeBytes).toBe(Buffer.byteLength(current.text));
  });

  it('lets exactly one of several undos with the same tag through, from either instance', async () => {
    const tree = await buildTree(apis[0], token, {
      blocks: 1,
      rows: 1,
      columns: [12],
      contents: 3,
    });
    const edited = await apis[0].put(tree.contents[0][0][0][0], { type: 'quote' }, { token });
    const revision = Number(edited.headers['project-revision']);
    const undos = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        apis[i % 2].post(`${tree.project}/revisions/${revision - 1}/restore`, undefined, {
          token,
          headers: { 'if-match': `"r${revision}"` },
        }),
      ),
    );
    expect(undos.map((u) => u.status).sort()).toEqual([200, ...Array(7).fill(412)]);
    const content = await apis[1].get(tree.contents[0][0][0][0], { token });
    expect(content.body.type).toBe('text');
    expect((await apis[1].get(tree.project, { token })).body.revision).toBe(revision + 1);
  });
});
