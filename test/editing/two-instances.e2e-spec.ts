import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { CONTENTS_PER_COLUMN_MAX } from '@layout/contracts';
import { checkTreeAccounts } from '../support/tree-invariants';
import { Api, createLayout, type Response, startTwoInstances } from '../support/test-app';

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
    ({ apps, apis, token } = await startTwoInstances('two-instances'));
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

  it('keeps every rule through a storm of mixed writes to one project from both instances', async () => {
    const layout = await createLayout(apis[0], token, 4);
    const column = async (size: number) =>
      (await apis[0].post(layout.columns, { size }, { token })).headers.location as string;
    const [wide, same] = [await column(4), await column(4)];
    const content = async (html: string) =>
      (await apis[1].post(layout.contents, { type: 'text', data: { html } }, { token })).headers
        .location as string;
    const edited = [await content('<p>a</p>'), await content('<p>b</p>')];
    const contested = await content('<p>c</p>');
    const doomed = [await content('<p>d</p>'), await content('<p>e</p>')];
    const contestedTag = (await apis[0].get(contested, { token })).headers.etag as string;
    const start = (await apis[1].get(layout.project, { token })).body.revision as number;

    const storm = [
      // Appends: one statement each.
      ...Array.from({ length: 12 }, (_, i) => ({
        kind: 'create',
        call: (api: Api) =>
          api.post(layout.contents, { type: 'text', data: { html: `<p>${i}</p>` } }, { token }),
      })),
      // Updates that read the content before they write it.
      ...Array.from({ length: 8 }, (_, i) => ({
        kind: 'update',
        call: (api: Api) =>
          api.put(edited[i % 2], { type: 'text', data: { html: `<p>edit ${i}</p>` } }, { token }),
      })),
      // A row of 4 + 4 + 4 has no room for 5: refused, and rolled back, every time.
      ...Array.from({ length: 6 }, () => ({
        kind: 'too wide',
        call: (api: Api) => api.put(wide, { size: 5 }, { token }),
      })),
      // Nothing changes: no revision.
      ...Array.from({ length: 4 }, () => ({
        kind: 'unchanged',
        call: (api: Api) => api.put(same, { size: 4 }, { token }),
      })),
      ...doomed.map((path) => ({
        kind: 'delete',
        call: (api: Api) => api.delete(path, { token }),
      })),
      // The same tag four times: one wins.
      ...Array.from({ length: 4 }, (_, i) => ({
        kind: 'if-match',
        call: (api: Api) =>
          api.put(
            contested,
            { type: 'text', data: { html: `<p>winner ${i}</p>` } },
            { token, headers: { 'if-match': contestedTag } },
          ),
      })),
    ];
    // Interleaved (7 is prime to the storm's length), so that each kind meets the others in
    // the same transactions.
    const order = storm.map((_, i) => (i * 7) % storm.length);
    expect(new Set(order).size).toBe(storm.length);
    const answers = new Array<Response>(storm.length);
    await Promise.all(
      order.map(async (index, n) => {
        answers[index] = await storm[index].call(apis[n % 2]);
      }),
    );
    const of = (kind: string) => answers.filter((_, i) => storm[i].kind === kind);
    expect(of('create').map((r) => r.status)).toEqual(Array(12).fill(201));
    expect(of('update').map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(of('too wide').map((r) => [r.status, r.body.availableSize])).toEqual(
      Array(6).fill([409, 4]),
    );
    expect(of('unchanged').map((r) => r.status)).toEqual(Array(4).fill(200));
    expect(of('delete').map((r) => r.status)).toEqual([204, 204]);
    expect(
      of('if-match')
        .map((r) => r.status)
        .sort(),
    ).toEqual([200, 412, 412, 412]);

    // Every change took one revision of its own, with no gap; nothing else took one.
    const changes = answers.filter(
      (r, i) => !['too wide', 'unchanged'].includes(storm[i].kind) && r.status < 300,
    );
    const revisions = changes
      .map((r) => Number(r.headers['project-revision']))
      .sort((a, b) => a - b);
    expect(revisions).toEqual(Array.from({ length: changes.length }, (_, i) => start + 1 + i));
    const project = await apis[0].get(layout.project, { token });
    expect(project.body.revision).toBe(start + changes.length);
    for (const r of of('unchanged')) {
      expect(Number(r.headers['project-revision'])).toBeLessThanOrEqual(start + changes.length);
    }
    // The appends are listed in the order of the revisions they took.
    const created = new Map(
      of('create').map((r) => [r.body._id as string, Number(r.headers['project-revision'])]),
    );
    const listed = (await apis[1].get(layout.contents, { token })).body as { _id: string }[];
    const appended = listed.filter((c) => created.has(c._id)).map((c) => created.get(c._id));
    expect(appended).toHaveLength(12);
    expect(appended).toEqual([...appended].sort((a, b) => (a as number) - (b as number)));
    // And every stored count and size is what the tree holds.
    const accounts = await checkTreeAccounts(layout.project.split('/').pop() as string);
    expect(accounts.mismatches).toEqual([]);
    expect(accounts.storedTreeBytes).toBe(Buffer.byteLength(project.text));
  });
});
