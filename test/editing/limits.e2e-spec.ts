import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import {
  BLOCKS_PER_PROJECT_MAX,
  CONTENT_DATA_MAX_BYTES,
  CONTENTS_PER_COLUMN_MAX,
  PROJECT_TREE_MAX_BYTES,
  PROJECTS_PER_ACCOUNT_MAX,
  ROWS_PER_BLOCK_MAX,
} from '@layout/contracts';
import { quoteOf } from '../support/big-contents';
import { checkTreeAccounts } from '../support/tree-invariants';
import { Api, createLayout, type Response, startTestApp } from '../support/test-app';

/** CONTRACT.md, part two, "Limits": each holds under concurrent requests. */
describe('limits', () => {
  let app: NestFastifyApplication;
  let api: Api;
  let token: string;

  beforeAll(async () => {
    app = await startTestApp();
    api = new Api(app);
    ({ token } = await api.newAccount('limits'));
  });
  afterAll(() => app.close());

  const statuses = (responses: Response[]) => responses.map((response) => response.status).sort();
  const expectLimit = (response: Response, limit: number) => {
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ type: '/problems/limit-exceeded', status: 409, limit });
  };
  const idOf = (path: string) => path.split('/').pop() as string;
  const inParallel = (n: number, call: (i: number) => Promise<Response>) =>
    Promise.all(Array.from({ length: n }, (_, i) => call(i)));

  it(`holds a column to ${CONTENTS_PER_COLUMN_MAX} contents, also filled in parallel`, async () => {
    const layout = await createLayout(api, token);
    const many = (n: number) => Array.from({ length: n }, () => ({ type: 'empty' }));
    expectLimit(
      await api.put(layout.column, { contents: many(CONTENTS_PER_COLUMN_MAX + 1) }, { token }),
      CONTENTS_PER_COLUMN_MAX,
    );
    expectLimit(
      await api.post(
        layout.columns,
        { size: 1, contents: many(CONTENTS_PER_COLUMN_MAX + 1) },
        { token },
      ),
      CONTENTS_PER_COLUMN_MAX,
    );
    // As many as a column holds, in one PUT.
    const most = await api.put(
      layout.column,
      { contents: many(CONTENTS_PER_COLUMN_MAX) },
      { token },
    );
    expect([most.status, most.body.contents?.length]).toEqual([200, CONTENTS_PER_COLUMN_MAX]);
    expectLimit(
      await api.post(layout.contents, { type: 'empty' }, { token }),
      CONTENTS_PER_COLUMN_MAX,
    );
    // One place left, for six writers at once.
    const full = await api.put(
      layout.column,
      { contents: many(CONTENTS_PER_COLUMN_MAX - 1) },
      { token },
    );
    expect(full.status).toBe(200);
    const responses = await inParallel(6, (i) =>
      api.post(layout.contents, { type: 'empty', ...(i % 2 && { position: 0 }) }, { token }),
    );
    expect(statuses(responses)).toEqual([201, 409, 409, 409, 409, 409]);
    responses
      .filter((r) => r.status === 409)
      .forEach((r) => expectLimit(r, CONTENTS_PER_COLUMN_MAX));
    const stored = await api.get(layout.contents, { token });
    expect(stored.body).toHaveLength(CONTENTS_PER_COLUMN_MAX);
    expect((await checkTreeAccounts(idOf(layout.project))).mismatches).toEqual([]);
  }, 60_000);

  it(`holds a block to ${ROWS_PER_BLOCK_MAX} rows and a project to ${BLOCKS_PER_PROJECT_MAX} blocks`, async () => {
    const layout = await createLayout(api, token);
    const rows = `${layout.block}/rows`;
    const blocks = `${layout.project}/blocks`;
    for (let i = 1; i < ROWS_PER_BLOCK_MAX - 3; i++) await api.post(rows, {}, { token });
    for (let i = 1; i < BLOCKS_PER_PROJECT_MAX - 3; i++) {
      await api.post(blocks, { description: '' }, { token });
    }
    const [rowAnswers, blockAnswers] = await Promise.all([
      inParallel(8, () => api.post(rows, { description: 'late' }, { token })),
      inParallel(8, (i) => api.post(blocks, { description: 'late', position: i }, { token })),
    ]);
    expect(statuses(rowAnswers)).toEqual([201, 201, 201, 409, 409, 409, 409, 409]);
    expect(statuses(blockAnswers)).toEqual([201, 201, 201, 409, 409, 409, 409, 409]);
    expectLimit(rowAnswers.sort((a, b) => b.status - a.status)[0], ROWS_PER_BLOCK_MAX);
    expectLimit(blockAnswers.sort((a, b) => b.status - a.status)[0], BLOCKS_PER_PROJECT_MAX);
    expect((await api.get(rows, { token })).body).toHaveLength(ROWS_PER_BLOCK_MAX);
    expect((await api.get(blocks, { token })).body).toHaveLength(BLOCKS_PER_PROJECT_MAX);
    // A delete makes room again.
    const last = (await api.get(rows, { token })).body.at(-1)._id as string;
    expect((await api.delete(`${rows}/${last}`, { token })).status).toBe(204);
    expect((await api.post(rows, {}, { token })).status).toBe(201);
  }, 120_000);

  it(`holds an account to ${PROJECTS_PER_ACCOUNT_MAX} projects, created or copied in parallel`, async () => {
    const owner = await api.newAccount('many-projects');
    // All but five projects straight into the tables (through the API it would take minutes),
    // counted the way the service counts them.
    const db = new Client({ connectionString: process.env.LAYOUT_TEST_DATABASE_URL });
    await db.connect();
    let filler: string;
    try {
      const { rows } = await db.query<{ id: string }>(
        `WITH made AS (INSERT INTO projects (owner_id, title)
           SELECT $1, 'filler ' || n FROM generate_series(1, $2::int) n RETURNING id),
         counted AS (UPDATE accounts SET project_count = (SELECT count(*) FROM made) WHERE id = $1)
         SELECT (array_agg(id))[1]::text AS id FROM made`,
        [owner.id, PROJECTS_PER_ACCOUNT_MAX - 5],
      );
      filler = rows[0].id;
    } finally {
      await db.end();
    }
    // A project's copy is a project of the account too (CONTRACT.md, "Duplicating a node").
    const responses = await inParallel(9, (i) =>
      i % 2 === 0
        ? api.post('/projects', { title: `late ${i}` }, { token: owner.token })
        : api.post(`/projects/${filler}/duplicate`, {}, { token: owner.token }),
    );
    expect(statuses(responses)).toEqual([201, 201, 201, 201, 201, 409, 409, 409, 409]);
    for (const refused of responses.filter((r) => r.status === 409)) {
      expectLimit(refused, PROJECTS_PER_ACCOUNT_MAX);
    }
    // Exactly the limit, counted by walking every page of the list.
    let listed = 0;
    for (let next: string | undefined = '/projects?limit=100'; next !== undefined;) {
      const page: Response = await api.get(next, { token: owner.token });
      listed += (page.body as unknown[]).length;
      next = /<([^>]+)>; rel="next"/.exec(String(page.headers.link ?? ''))?.[1];
    }
    expect(listed).toBe(PROJECTS_PER_ACCOUNT_MAX);
    const created = responses.find((r) => r.status === 201) as Response;
    expect(
      (await api.delete(created.headers.location as string, { token: owner.token })).status,
    ).toBe(204);
    expect(
      (await api.post('/projects', { title: 'room again' }, { token: owner.token })).status,
    ).toBe(201);
  }, 60_000);

  describe(`a content's data of at most ${CONTENT_DATA_MAX_BYTES / 1024} KiB as stored JSON`, () => {
    const textOf = quoteOf;

    it('accepts it exactly at the limit and answers 413 one byte above, changing nothing', async () => {
      const layout = await createLayout(api, token);
      const before = await api.get(layout.project, { token });
      for (const response of [
        await api.post(layout.contents, textOf(CONTENT_DATA_MAX_BYTES + 1), { token }),
        await api.put(layout.column, { contents: [textOf(CONTENT_DATA_MAX_BYTES + 1)] }, { token }),
        await api.post(
          layout.columns,
          { size: 1, contents: [{ type: 'empty' }, textOf(CONTENT_DATA_MAX_BYTES + 1)] },
          { token },
        ),
      ]) {
        expect(response.status).toBe(413);
        expect(response.body).toMatchObject({ type: '/problems/payload-too-large', status: 413 });
      }
      expect((await api.get(layout.project, { token })).text).toBe(before.text);
      const fits = await api.post(layout.contents, textOf(CONTENT_DATA_MAX_BYTES), { token });
      expect(fits.status).toBe(201);
      expect(Buffer.byteLength(JSON.stringify(fits.body.data))).toBe(CONTENT_DATA_MAX_BYTES);
      const update = await api.put(
        fits.headers.location as string,
        textOf(CONTENT_DATA_MAX_BYTES + 1),
        { token },
      );
      expect(update.status).toBe(413);
    });
  });

  it(`holds a project's whole answer to ${PROJECT_TREE_MAX_BYTES / 1024 / 1024} MiB, also written in parallel`, async () => {
    const layout = await createLayout(api, token, 4);
    const big = quoteOf;
    const size = async () => Buffer.byteLength((await api.get(layout.project, { token })).text);
    // Fill to about 150 KB short of the limit, with contents of about 250 KB.
    for (let left = PROJECT_TREE_MAX_BYTES - (await size()); left > 400_000; left -= 250_000) {
      expect((await api.post(layout.contents, big(250_000), { token })).status).toBe(201);
      left = PROJECT_TREE_MAX_BYTES - (await size()) + 250_000;
    }
    const room = PROJECT_TREE_MAX_BYTES - (await size());
    expect((await api.post(layout.contents, big(room - 150_000), { token })).status).toBe(201);
    // Room for one of these, not two.
    const responses = await inParallel(4, () => api.post(layout.contents, big(90_000), { token }));
    expect(statuses(responses)).toEqual([201, 409, 409, 409]);
    expectLimit(responses.find((r) => r.status === 409) as Response, PROJECT_TREE_MAX_BYTES);
    const answer = await api.get(layout.project, { token });
    expect(Buffer.byteLength(answer.text)).toBeLessThanOrEqual(PROJECT_TREE_MAX_BYTES);
    const accounts = await checkTreeAccounts(idOf(layout.project));
    expect(accounts).toEqual({ mismatches: [], storedTreeBytes: Buffer.byteLength(answer.text) });
    // Other writes that grow it are refused too; those that shrink it are not.
    expectLimit(
      await api.post(layout.columns, { size: 1, contents: [big(90_000)] }, { token }),
      PROJECT_TREE_MAX_BYTES,
    );
    const contents = (await api.get(layout.contents, { token })).body as { _id: string }[];
    expect((await api.delete(`${layout.contents}/${contents[0]._id}`, { token })).status).toBe(204);
    expect((await api.post(layout.contents, big(90_000), { token })).status).toBe(201);
  }, 60_000);

  it('refuses a batch of updates at the one that passes the size limit, though a later one shrinks the tree', async () => {
    const layout = await createLayout(api, token, 4);
    const read = () => api.get(layout.project, { token });
    const size = async () => Buffer.byteLength((await read()).text);
    const post = async (bytes: number) => {
      const made = await api.post(layout.contents, quoteOf(bytes), { token });
      expect(made.status).toBe(201);
      return made.headers.location as string;
    };
    // Three small contents the batch updates, then contents of about 250 KB up to a few
    // hundred KB short of the limit.
    const [a, b, c] = [await post(20_000), await post(20_000), await post(20_000)];
    const empty = await size();
    await post(250_000);
    const fills = Math.floor((PROJECT_TREE_MAX_BYTES - 400_000 - empty) / ((await size()) - empty));
    for (let i = 1; i < fills; i += 1) await post(250_000);
    // Then to about 300 KB short: half of it fits a content's own limit.
    let left = PROJECT_TREE_MAX_BYTES - (await size());
    for (; left > 500_000; left = PROJECT_TREE_MAX_BYTES - (await size())) await post(200_000);
    await post(left - 300_000);
    const room = PROJECT_TREE_MAX_BYTES - (await size());
    const half = Math.floor(room / 2);
    // Members alone, of distinct contents: one statement, each update still checked at its turn.
    const operations = (over: number) => [
      { method: 'PUT', path: a, body: quoteOf(20_000 + half) },
      { method: 'PUT', path: b, body: quoteOf(20_000 + half + over) },
      { method: 'PUT', path: c, body: quoteOf(1_000) },
    ];
    const before = await read();
    const revisions = (await api.get(`${layout.project}/revisions`, { token })).body;

    const refused = await api.post(
      `${layout.project}/batch`,
      { operations: operations(10_000) },
      { token },
    );
    expectLimit(refused, PROJECT_TREE_MAX_BYTES);
    expect(refused.body.operationIndex).toBe(1);
    expect((await read()).text).toBe(before.text);
    expect((await api.get(`${layout.project}/revisions`, { token })).body).toEqual(revisions);

    const taken = await api.post(
      `${layout.project}/batch`,
      { operations: operations(-10_000) },
      { token },
    );
    expect(taken.status).toBe(200);
    expect(taken.body.results.map((r: { status: number }) => r.status)).toEqual([200, 200, 200]);
    const after = await read();
    expect(Buffer.byteLength(after.text)).toBeLessThanOrEqual(PROJECT_TREE_MAX_BYTES);
    expect(await checkTreeAccounts(idOf(layout.project))).toEqual({
      mismatches: [],
      storedTreeBytes: Buffer.byteLength(after.text),
    });
  }, 60_000);

  it('refuses a restore whose answer would pass the size limit, changing nothing', async () => {
    // A past state within the limit passes it again when restored only by its answer's longer
    // revision: exactly at the limit at revision 99, restored as revision 101.
    const layout = await createLayout(api, token, 4);
    const read = () => api.get(layout.project, { token });
    const size = async () => Buffer.byteLength((await read()).text);
    const expectWritten = (response: Response) => expect(response.status).toBeLessThan(300);
    const fill = () => api.post(layout.contents, quoteOf(200_000), { token });
    // What one filling content adds, so that the big project is read only a few times.
    const empty = await size();
    expectWritten(await fill());
    const fills = Math.floor((PROJECT_TREE_MAX_BYTES - 20_000 - empty) / ((await size()) - empty));
    const afterFills = ((await read()).body.revision as number) + fills - 1;
    // Retitles while the project is small take it to where the fills and a filler end at 98.
    for (let revision = afterFills; revision < 97; revision += 1) {
      expectWritten(await api.put(layout.project, { title: `T${revision % 2}` }, { token }));
    }
    for (let i = 1; i < fills; i += 1) expectWritten(await fill());
    const filler = (await api.post(layout.contents, quoteOf(1_000), { token })).headers
      .location as string;
    const room = PROJECT_TREE_MAX_BYTES - (await size());
    expectWritten(await api.put(filler, quoteOf(1_000 + room), { token }));
    const full = await read();
    expect([full.body.revision, Buffer.byteLength(full.text)]).toEqual([
      99,
      PROJECT_TREE_MAX_BYTES,
    ]);
    expect((await api.delete(filler, { token })).status).toBe(204);
    const before = await read();

    const refused = await api.post(
      `${layout.project}/revisions/99/restore`,
      {},
      {
        token,
        headers: { 'if-match': before.headers.etag as string },
      },
    );
    expectLimit(refused, PROJECT_TREE_MAX_BYTES);
    expect((await read()).text).toBe(before.text);
    const restored = await api.post(`${layout.project}/revisions/98/restore`, {}, { token });
    expect(restored.status).toBe(200);
    expect(Buffer.byteLength(restored.text)).toBeLessThan(PROJECT_TREE_MAX_BYTES);
  }, 60_000);

  it('takes any position from 0 to 2^53 - 1; past the end is the end', async () => {
    const layout = await createLayout(api, token);
    const first = await api.post(layout.contents, { type: 'empty' }, { token });
    const last = await api.post(
      layout.contents,
      { type: 'empty', position: Number.MAX_SAFE_INTEGER },
      { token },
    );
    expect(last.status).toBe(201);
    const moved = await api.put(
      first.headers.location as string,
      { type: 'empty', position: Number.MAX_SAFE_INTEGER },
      { token },
    );
    expect(moved.status).toBe(200);
    const order = ((await api.get(layout.contents, { token })).body as { _id: string }[]).map(
      (c) => c._id,
    );
    expect(order).toEqual([last.body._id, first.body._id]);
    for (const position of [2 ** 53, -1, 1.5, '1']) {
      const response = await api.post(layout.contents, { type: 'empty', position }, { token });
      expect([position, response.status]).toEqual([position, 400]);
    }
  });
});
