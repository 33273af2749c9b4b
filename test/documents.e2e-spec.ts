import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Api, createLayout, type Response, startTestApp } from './support/test-app';

/**
 * Every answer of the tree is a document PostgreSQL builds (repositories/sql/documents.sql.ts):
 * reads from the tables, writes from the row they just wrote (RETURNING). Both must say exactly
 * the same thing about the same data, keys in the same order, down to the last character of a
 * text, the millisecond of a timestamp and the digits of a number stored in a style or a quote.
 */
describe('reads built by PostgreSQL match what the writes answer', () => {
  let app: NestFastifyApplication;
  let api: Api;
  let token: string;

  beforeAll(async () => {
    app = await startTestApp();
    api = new Api(app);
    ({ token } = await api.newAccount('documents'));
  });
  afterAll(() => app.close());

  /** The same JSON value, with the same key order at every level (whitespace aside). */
  const canonical = (response: Response) => JSON.stringify(JSON.parse(response.text));
  const ok = async (call: Promise<Response>, status = 200) => {
    const response = await call;
    if (response.status !== status) throw new Error(`${response.status}: ${response.text}`);
    return response;
  };

  it('for every level of a varied tree, and for each list', async () => {
    const layout = await createLayout(api, token, 5);
    const second = await ok(api.post(layout.columns, { size: 7, position: 0 }, { token }), 201);
    const secondContents = `${layout.columns}/${second.body._id}/contents`;
    const createdContents = [
      await api.post(
        layout.contents,
        {
          type: 'text',
          style: { opacity: 0.25, backgroundPosition: '10.5px 50%' },
          data: { html: '<p>Prix: 1\u202f800 € — “quoted” &amp; <strong>bold</strong> 🎉</p>' },
        },
        { token },
      ),
      await api.post(
        layout.contents,
        {
          type: 'image',
          data: {
            url: 'https://cdn.example.com/a%20b/%C3%BC.png',
            width: '600px',
            alt: 'Tab\there',
          },
        },
        { token },
      ),
      await api.post(
        layout.contents,
        {
          type: 'quote',
          position: 0,
          data: {
            options: { currency: 'EUR' },
            content: {
              fields: [
                { id: 'price', label: 'Price', show: true },
                { id: 'quantity', label: 'Qty', show: false },
                { id: 'discount', label: 'Discount', show: true },
              ],
              items: [{ id: '1', price: 4200.5, quantity: 1e3, discount: -0.125 }],
            },
          },
        },
        { token },
      ),
      await api.post(
        secondContents,
        { type: 'video', data: { url: 'https://v.example/x' } },
        {
          token,
        },
      ),
      await api.post(secondContents, { type: 'empty' }, { token }),
    ];
    for (const created of createdContents) {
      expect(created.status === 201 ? 201 : created.text).toBe(201);
    }

    // A write's answer (presented in Node) against the read of the same resource (PostgreSQL).
    for (const created of createdContents.slice(0, 3)) {
      const read = await ok(api.get(`${layout.contents}/${created.body._id}`, { token }));
      expect(canonical(read)).toBe(canonical(created));
    }
    const column = await ok(api.put(layout.column, {}, { token }));
    expect(canonical(await ok(api.get(layout.column, { token })))).toBe(canonical(column));
    const contents = await ok(api.get(layout.contents, { token }));
    expect(canonical(contents)).toBe(JSON.stringify(column.body.contents));

    const row = await ok(api.put(layout.row, { description: 'Prices “2025” \\ net' }, { token }));
    expect(canonical(await ok(api.get(layout.row, { token })))).toBe(canonical(row));
    const columns = await ok(api.get(layout.columns, { token }));
    expect(canonical(columns)).toBe(JSON.stringify(row.body.columns));
    expect(row.body.columns.map((c: { size: string }) => c.size)).toEqual(['7', '5']);

    const block = await ok(
      api.put(
        layout.block,
        {
          description: 'Ünïcödé\nblock',
          style: { opacity: 0.5, backgroundImage: 'https://cdn.example.com/bg.png?v=2&q="x"' },
        },
        { token },
      ),
    );
    expect(canonical(await ok(api.get(layout.block, { token })))).toBe(canonical(block));
    const rows = await ok(api.get(`${layout.block}/rows`, { token }));
    expect(canonical(rows)).toBe(JSON.stringify(block.body.rows));
    const blocks = await ok(api.get(`${layout.project}/blocks`, { token }));
    expect(canonical(blocks)).toBe(JSON.stringify([block.body]));

    const project = await ok(api.get(layout.project, { token }));
    expect(JSON.stringify(project.body.blocks)).toBe(JSON.stringify([block.body]));
  });

  it('for a project, with its timestamps to the millisecond', async () => {
    const created = await ok(
      api.post('/projects', { title: 'Ta\u0301ble « ronde »' }, { token }),
      201,
    );
    const read = await ok(api.get(`/projects/${created.body._id}`, { token }));
    expect(canonical(read)).toBe(canonical(created));
    expect(read.body.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const renamed = await ok(api.put(`/projects/${created.body._id}`, { title: 'x' }, { token }));
    expect(renamed.body).toEqual({
      ...created.body,
      title: 'x',
      revision: 2,
      updatedAt: expect.any(String),
    });
  });

  it('empty lists are [] and answers are JSON with the right content type', async () => {
    const layout = await createLayout(api, token);
    const contents = await ok(api.get(layout.contents, { token }));
    expect(contents.body).toEqual([]);
    expect(contents.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(contents.headers['content-length'])).toBe(Buffer.byteLength(contents.text));
  });
});
