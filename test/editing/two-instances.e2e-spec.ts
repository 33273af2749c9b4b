import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { CONTENTS_PER_COLUMN_MAX } from '@layout/contracts';
import { checkTreeAccounts } from '../support/tree-invariants';
import { Api, createLayout, type Response, startTestApp } from '../support/test-app';

/**
 * Part two's rules across instances: two instances of the service on one database, each
 * taking half of the concurrent writers. Everything they share is in PostgreSQL (the project's
 * row lock), so the outcome must be the same as on one instance.
 */
describe('editing together on two instances', () => {
  let apps: NestFastifyApplication[];
  let apis: Api[];
  let token: string;

  beforeAll(async () => {
    apps = await Promise.all([startTestApp(), startTestApp()]);
    apis = apps.map((app) => new Api(app));
    ({ token } = await apis[0].newAccount('two-instances'));
  });
  afterAll(() => Promise.all(apps.map((app) => app.close())));

  /** `n` calls, alternating between the two instances, all at once. */
  const both = (n: number, call: (api: Api, i: number) => Promise<Response>) =>
    Promise.all(Array.from({ length: n }, (_, i) => call(apis[i % 2], i)));

  it('numbers the writes of both instances without a gap or a repeat', async () => {
    const layout = await createLayout(apis[0], token, 6);
    const start = (await apis[1].get(layout.project, { token })).body.revision as number;
    const responses = await both(20, (api) =>
      api.post(layout.contents, { type: 'empty' }, { token }),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(201));
    const revisions = responses
      .map((r) => Number(r.headers['project-revision']))
      .sort((a, b) => a - b);
    expect(revisions).toEqual(Array.from({ length: 20 }, (_, i) => start + 1 + i));
    const accounts = await checkTreeAccounts(layout.project.split('/').pop() as string);
    expect(accounts.mismatches).toEqual([]);
  });

  it('lets exactly one of the writers that send the same tag through, whichever instance', async () => {
    const layout = await createLayout(apis[0], token, 6);
    const tag = (await apis[1].get(layout.column, { token })).headers.etag as string;
    const responses = await both(10, (api, i) =>
      api.put(layout.column, { size: 1 + i }, { token, headers: { 'if-match': tag } }),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(412)]);
  });

  it('fills a column to its limit and no further, from both instances', async () => {
    const layout = await createLayout(apis[0], token, 6);
    const many = Array.from({ length: CONTENTS_PER_COLUMN_MAX - 3 }, () => ({ type: 'empty' }));
    expect((await apis[1].put(layout.column, { contents: many }, { token })).status).toBe(200);
    const responses = await both(10, (api) =>
      api.post(layout.contents, { type: 'empty' }, { token }),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([
      ...Array(3).fill(201),
      ...Array(7).fill(409),
    ]);
    expect((await apis[0].get(layout.contents, { token })).body).toHaveLength(
      CONTENTS_PER_COLUMN_MAX,
    );
  });
});
