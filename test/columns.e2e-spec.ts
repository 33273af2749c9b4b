import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Api, createLayout, type LayoutPaths, startTestApp } from './support/test-app';

describe('columns', () => {
  let app: NestFastifyApplication;
  let api: Api;
  let token: string;

  beforeAll(async () => {
    app = await startTestApp();
    api = new Api(app);
    ({ token } = await api.newAccount());
  });
  afterAll(() => app.close());

  /** A row with no columns yet. */
  async function emptyRow(): Promise<string> {
    const layout = await createLayout(api, token);
    await api.delete(layout.column, { token });
    return layout.columns;
  }

  describe('create', () => {
    it('answers 201 with exactly _id, size as a string and contents, and a Location header', async () => {
      const columns = await emptyRow();
      const response = await api.post(columns, { size: 6 }, { token });
      expect(response.status).toBe(201);
      expect(response.body).toEqual({ _id: expect.any(String), size: '6', contents: [] });
      expect(response.headers.location).toBe(`${columns}/${response.body._id}`);
      expect((await api.get(response.headers.location as string, { token })).body).toEqual(
        response.body,
      );
    });

    it('accepts the string form of a size, as responses render it', async () => {
      const columns = await emptyRow();
      const response = await api.post(columns, { size: '12' }, { token });
      expect(response.status).toBe(201);
      expect(response.body.size).toBe('12');
    });

    it.each([6.5, '6.5', 'six', 0, 13, -1, true, null, [6], { value: 6 }, '', ' 6'])(
      'rejects size %j with 400 and creates nothing',
      async (size) => {
        const columns = await emptyRow();
        const response = await api.post(columns, { size }, { token });
        expect(response.status).toBe(400);
        expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(response.body.type).toBe('/problems/validation');
        expect(response.body.errors).toContainEqual({
          pointer: '/size',
          detail: expect.any(String),
        });
        expect((await api.get(columns, { token })).body).toEqual([]);
      },
    );

    it('requires size', async () => {
      const columns = await emptyRow();
      const response = await api.post(columns, {}, { token });
      expect(response.status).toBe(400);
      expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toContain('/size');
    });

    it('rejects an unknown member', async () => {
      const columns = await emptyRow();
      const response = await api.post(columns, { size: 4, width: 4 }, { token });
      expect(response.status).toBe(400);
      expect(response.body.errors).toContainEqual({
        pointer: '/width',
        detail: expect.any(String),
      });
    });

    it('creates the given contents in order, with defaults filled in', async () => {
      const columns = await emptyRow();
      const response = await api.post(
        columns,
        { size: 4, contents: [{ type: 'text', data: { html: '<p>Hi</p>' } }, { type: 'empty' }] },
        { token },
      );
      expect(response.status).toBe(201);
      expect(response.body.contents).toEqual([
        {
          _id: expect.any(String),
          type: 'text',
          style: {
            backgroundImage: '',
            backgroundRepeat: 'no-repeat',
            backgroundSize: 'cover',
            backgroundPosition: 'center center',
            opacity: 1,
          },
          data: { html: '<p>Hi</p>' },
        },
        expect.objectContaining({ type: 'empty', data: {} }),
      ]);
    });

    it('ignores an _id in the contents of a new column, as in any tree a create carries', async () => {
      // Part three, "Whole trees in one request": the members a read adds are ignored.
      const layout = await createLayout(api, token, 3);
      const content = await api.post(layout.contents, { type: 'empty' }, { token });
      const response = await api.post(
        layout.columns,
        { size: 3, contents: [{ _id: content.body._id, type: 'empty' }] },
        { token },
      );
      expect(response.status).toBe(201);
      expect(response.body.contents).toHaveLength(1);
      expect(response.body.contents[0]._id).not.toBe(content.body._id);
      expect((await api.get(layout.contents, { token })).body).toEqual([content.body]);
    });
  });

  describe('row width', () => {
    it('answers 409 with availableSize when a create would pass 12', async () => {
      const columns = await emptyRow();
      await api.post(columns, { size: 5 }, { token });
      await api.post(columns, { size: 4 }, { token });
      const response = await api.post(columns, { size: 4 }, { token });
      expect(response.status).toBe(409);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.body).toMatchObject({
        type: '/problems/row-width-exceeded',
        status: 409,
        availableSize: 3,
      });
      expect((await api.get(columns, { token })).body).toHaveLength(2);
      expect((await api.post(columns, { size: 3 }, { token })).status).toBe(201);
      expect((await api.post(columns, { size: 1 }, { token })).body.availableSize).toBe(0);
    });

    it('counts the other columns only when a column is resized', async () => {
      const columns = await emptyRow();
      const first = await api.post(columns, { size: 6 }, { token });
      await api.post(columns, { size: 4 }, { token });
      const path = `${columns}/${first.body._id}`;
      expect((await api.put(path, { size: 8 }, { token })).body.size).toBe('8');
      const refused = await api.put(path, { size: 9 }, { token });
      expect(refused.status).toBe(409);
      expect(refused.body.availableSize).toBe(8);
      expect((await api.get(path, { token })).body.size).toBe('8');
    });

    it('holds under 30 concurrent creates: exactly 12 succeed', async () => {
      const columns = await emptyRow();
      const responses = await Promise.all(
        Array.from({ length: 30 }, () => api.post(columns, { size: 1 }, { token })),
      );
      const statuses = responses.map((response) => response.status);
      expect(statuses.filter((status) => status === 201)).toHaveLength(12);
      expect(statuses.filter((status) => status === 409)).toHaveLength(18);
      const stored = (await api.get(columns, { token })).body as { _id: string }[];
      expect(stored).toHaveLength(12);
      const created = responses
        .filter((r) => r.status === 201)
        .map((r) => r.body._id)
        .sort();
      expect(stored.map((column) => column._id).sort()).toEqual(created);
    });

    it('holds under concurrent resizes', async () => {
      const columns = await emptyRow();
      const ids: string[] = [];
      for (let i = 0; i < 4; i++)
        ids.push((await api.post(columns, { size: 1 }, { token })).body._id);
      // 1+1+1+1: growing any one column to 6 leaves room (9), growing a second one does not (14).
      const responses = await Promise.all(
        ids.map((id) => api.put(`${columns}/${id}`, { size: 6 }, { token })),
      );
      expect(responses.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
      const sizes = ((await api.get(columns, { token })).body as { size: string }[]).map((c) =>
        Number(c.size),
      );
      expect(sizes.sort()).toEqual([1, 1, 1, 6]);
    });
  });

  describe('list, retrieve, order', () => {
    it('lists in stored order and inserts at position', async () => {
      const columns = await emptyRow();
      const a = (await api.post(columns, { size: 1 }, { token })).body._id;
      const b = (await api.post(columns, { size: 2 }, { token })).body._id;
      const c = (await api.post(columns, { size: 3, position: 0 }, { token })).body._id;
      const d = (await api.post(columns, { size: 4, position: 99 }, { token })).body._id;
      const ids = async () =>
        ((await api.get(columns, { token })).body as { _id: string }[]).map((x) => x._id);
      expect(await ids()).toEqual([c, a, b, d]);

      await api.put(`${columns}/${d}`, { position: 1 }, { token });
      expect(await ids()).toEqual([c, d, a, b]);
      await api.put(`${columns}/${c}`, { position: 50 }, { token });
      expect(await ids()).toEqual([d, a, b, c]);
      await api.delete(`${columns}/${a}`, { token });
      expect(await ids()).toEqual([d, b, c]);
      const e = (await api.post(columns, { size: 1, position: 2 }, { token })).body._id;
      expect(await ids()).toEqual([d, b, e, c]);
    });

    it.each(['not-an-id', '00000000-0000-0000-0000-000000000000', "1' OR '1'='1", '%00'])(
      'answers 404 for column id %j',
      async (id) => {
        const layout = await createLayout(api, token);
        const response = await api.get(`${layout.columns}/${encodeURIComponent(id)}`, { token });
        expect(response.status).toBe(404);
        expect(response.body.type).toBe('/problems/not-found');
      },
    );

    it('answers 404 for a column reached through another row', async () => {
      const one = await createLayout(api, token);
      const two = await createLayout(api, token);
      const columnId = one.column.split('/').pop();
      expect((await api.get(`${two.columns}/${columnId}`, { token })).status).toBe(404);
      expect((await api.put(`${two.columns}/${columnId}`, { size: 1 }, { token })).status).toBe(
        404,
      );
      expect((await api.delete(`${two.columns}/${columnId}`, { token })).status).toBe(404);
      expect((await api.get(one.column, { token })).body.size).toBe('6');
    });
  });

  describe('update', () => {
    let layout: LayoutPaths;
    beforeEach(async () => {
      layout = await createLayout(api, token, 4);
    });

    it('accepts a body with only size and keeps the contents', async () => {
      await api.post(layout.contents, { type: 'text', data: { html: 'kept' } }, { token });
      const response = await api.put(layout.column, { size: 5 }, { token });
      expect(response.status).toBe(200);
      expect(response.body.size).toBe('5');
      expect(response.body.contents).toEqual([expect.objectContaining({ data: { html: 'kept' } })]);
    });

    it('accepts what it returned, sent back as is', async () => {
      await api.post(layout.contents, { type: 'empty' }, { token });
      const read = (await api.get(layout.column, { token })).body;
      const response = await api.put(layout.column, read, { token });
      expect(response.status).toBe(200);
      expect(response.body).toEqual(read);
    });

    it('replaces the contents list: updates listed ids in place, creates, deletes the rest', async () => {
      const first = (
        await api.post(layout.contents, { type: 'text', data: { html: 'one' } }, { token })
      ).body;
      const second = (await api.post(layout.contents, { type: 'empty' }, { token })).body;
      const response = await api.put(
        layout.column,
        { contents: [{ type: 'quote' }, { _id: first._id, type: 'text' }] },
        { token },
      );
      expect(response.status).toBe(200);
      expect(response.body.size).toBe('4');
      expect(response.body.contents).toEqual([
        expect.objectContaining({ type: 'quote', data: {} }),
        { ...first, data: { html: 'one' } },
      ]);
      expect(response.body.contents[0]._id).not.toBe(second._id);
      expect((await api.get(`${layout.contents}/${second._id}`, { token })).status).toBe(404);
    });

    it('changes nothing when an element fails validation halfway through the list', async () => {
      await api.post(layout.contents, { type: 'text', data: { html: 'before' } }, { token });
      const before = (await api.get(layout.column, { token })).body;
      const response = await api.put(
        layout.column,
        {
          size: 2,
          contents: [{ type: 'empty' }, { type: 'image', data: { url: 'javascript:x' } }],
        },
        { token },
      );
      expect(response.status).toBe(400);
      expect(response.body.errors).toContainEqual({
        pointer: '/contents/1/data/url',
        detail: expect.any(String),
      });
      expect((await api.get(layout.column, { token })).body).toEqual(before);
    });

    it('changes nothing when an element names a content of another column', async () => {
      const other = await createLayout(api, token);
      const foreign = (await api.post(other.contents, { type: 'empty' }, { token })).body;
      await api.post(layout.contents, { type: 'empty' }, { token });
      const before = (await api.get(layout.column, { token })).body;
      const response = await api.put(
        layout.column,
        { size: 1, contents: [{ type: 'empty' }, { _id: foreign._id, type: 'empty' }] },
        { token },
      );
      expect(response.status).toBe(400);
      expect(response.body.errors).toEqual([
        { pointer: '/contents/1/_id', detail: expect.any(String) },
      ]);
      expect((await api.get(layout.column, { token })).body).toEqual(before);
      expect((await api.get(`${other.contents}/${foreign._id}`, { token })).body).toEqual(foreign);
    });

    it('changes nothing when the new size does not fit, even with valid contents', async () => {
      await api.post(layout.columns, { size: 8 }, { token });
      const before = (await api.get(layout.column, { token })).body;
      const response = await api.put(
        layout.column,
        { size: 5, contents: [{ type: 'empty' }] },
        { token },
      );
      expect(response.status).toBe(409);
      expect(response.body.availableSize).toBe(4);
      expect((await api.get(layout.column, { token })).body).toEqual(before);
    });

    it('rejects an _id in the body that is not the one in the path', async () => {
      const response = await api.put(layout.column, { _id: 'other', size: 2 }, { token });
      expect(response.status).toBe(400);
      expect(response.body.errors).toEqual([{ pointer: '/_id', detail: expect.any(String) }]);
    });
  });

  describe('delete', () => {
    it('answers 204 without a body, deletes the contents, and then 404', async () => {
      const layout = await createLayout(api, token);
      const content = (await api.post(layout.contents, { type: 'empty' }, { token })).body;
      const response = await api.delete(layout.column, { token });
      expect(response.status).toBe(204);
      expect(response.text).toBe('');
      expect((await api.get(layout.column, { token })).status).toBe(404);
      expect((await api.get(`${layout.contents}/${content._id}`, { token })).status).toBe(404);
      expect((await api.delete(layout.column, { token })).status).toBe(404);
    });
  });
});
