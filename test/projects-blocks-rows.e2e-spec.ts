import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Api, createLayout, startTestApp } from './support/test-app';

const DEFAULT_BLOCK_STYLE = {
  backgroundImage: '',
  backgroundRepeat: 'no-repeat',
  backgroundSize: 'cover',
  backgroundPosition: 'center center',
  opacity: 1,
  backgroundColor: 'rgba(255, 255, 255, 1)',
};

describe('projects, blocks and rows', () => {
  let app: NestFastifyApplication;
  let api: Api;
  let token: string;

  beforeAll(async () => {
    app = await startTestApp();
    api = new Api(app);
    ({ token } = await api.newAccount());
  });
  afterAll(() => app.close());

  it('creates, updates and deletes a project', async () => {
    const created = await api.post('/projects', { title: 'Website redesign' }, { token });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      _id: expect.any(String),
      title: 'Website redesign',
      revision: 1,
      blocks: [],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const path = `/projects/${created.body._id}`;
    expect(created.headers.location).toBe(path);
    const updated = await api.put(path, { title: 'Renamed' }, { token });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      _id: created.body._id,
      title: 'Renamed',
      createdAt: created.body.createdAt,
    });
    expect((await api.put(path, {}, { token })).body.title).toBe('Renamed');
    expect((await api.delete(path, { token })).status).toBe(204);
    expect((await api.get(path, { token })).status).toBe(404);
  });

  it('returns the whole ordered subtree of a project', async () => {
    const layout = await createLayout(api, token, 4);
    await api.post(layout.contents, { type: 'text', data: { html: '<p>a</p>' } }, { token });
    await api.post(layout.contents, { type: 'empty', position: 0 }, { token });
    await api.post(layout.columns, { size: 8 }, { token });
    const project = (await api.get(layout.project, { token })).body;
    expect(project.blocks).toHaveLength(1);
    const [block] = project.blocks;
    expect(block).toEqual({
      _id: layout.block.split('/').pop(),
      description: 'Intro',
      style: DEFAULT_BLOCK_STYLE,
      rows: [
        {
          _id: layout.row.split('/').pop(),
          description: '',
          columns: [
            {
              _id: layout.column.split('/').pop(),
              size: '4',
              contents: [
                expect.objectContaining({ type: 'empty' }),
                expect.objectContaining({ type: 'text', data: { html: '<p>a</p>' } }),
              ],
            },
            { _id: expect.any(String), size: '8', contents: [] },
          ],
        },
      ],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await api.get(layout.block, { token })).body).toEqual(block);
    expect((await api.get(`${layout.project}/blocks`, { token })).body).toEqual([block]);
    expect((await api.get(layout.row, { token })).body).toEqual(block.rows[0]);
    expect((await api.get(`${layout.block}/rows`, { token })).body).toEqual(block.rows);
  });

  it('validates and defaults block styles', async () => {
    const project = `/projects/${(await api.post('/projects', { title: 'P' }, { token })).body._id}`;
    const styled = await api.post(
      `${project}/blocks`,
      { description: 'Hero', style: { backgroundColor: '#ff0000', opacity: 0.8 } },
      { token },
    );
    expect(styled.status).toBe(201);
    expect(styled.body.style).toEqual({
      ...DEFAULT_BLOCK_STYLE,
      backgroundColor: '#ff0000',
      opacity: 0.8,
    });
    const bad = await api.post(
      `${project}/blocks`,
      { description: 'x', style: { backgroundColor: 'url(evil)' } },
      { token },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(
      '/style/backgroundColor',
    );
    const missing = await api.post(`${project}/blocks`, { style: {} }, { token });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(
      '/description',
    );
  });

  it('orders blocks and rows by position', async () => {
    const project = `/projects/${(await api.post('/projects', { title: 'P' }, { token })).body._id}`;
    const blocks = `${project}/blocks`;
    const a = (await api.post(blocks, { description: 'a' }, { token })).body._id;
    const b = (await api.post(blocks, { description: 'b', position: 0 }, { token })).body._id;
    const c = (await api.post(blocks, { description: 'c', position: 1 }, { token })).body._id;
    const blockIds = async () =>
      ((await api.get(blocks, { token })).body as { _id: string }[]).map((x) => x._id);
    expect(await blockIds()).toEqual([b, c, a]);
    expect((await api.put(`${blocks}/${b}`, { position: 2 }, { token })).body.description).toBe(
      'b',
    );
    expect(await blockIds()).toEqual([c, a, b]);
    await api.delete(`${blocks}/${c}`, { token });
    expect(await blockIds()).toEqual([a, b]);

    const rows = `${blocks}/${a}/rows`;
    const r1 = (await api.post(rows, { description: 'one' }, { token })).body;
    expect(r1).toEqual({ _id: expect.any(String), description: 'one', columns: [] });
    const r2 = (await api.post(rows, { position: 0 }, { token })).body;
    expect(r2.description).toBe('');
    const rowIds = async () =>
      ((await api.get(rows, { token })).body as { _id: string }[]).map((x) => x._id);
    expect(await rowIds()).toEqual([r2._id, r1._id]);
    const moved = await api.put(
      `${rows}/${r2._id}`,
      { position: 5, description: 'two' },
      { token },
    );
    expect(moved.body).toEqual({ ...r2, description: 'two' });
    expect(await rowIds()).toEqual([r1._id, r2._id]);

    // Every member of a row's body may be left out, and so may the body itself.
    const bare = await api.post(rows, undefined, { token });
    expect(bare.status).toBe(201);
    expect(bare.body).toEqual({ _id: expect.any(String), description: '', columns: [] });
    expect(await rowIds()).toEqual([r1._id, r2._id, bare.body._id]);
    const notAnObject = await api.post(rows, [], { token });
    expect(notAnObject.status).toBe(400);
    expect(await rowIds()).toEqual([r1._id, r2._id, bare.body._id]);
  });

  it('deletes a whole subtree with its block', async () => {
    const layout = await createLayout(api, token);
    const content = (await api.post(layout.contents, { type: 'empty' }, { token })).body;
    expect((await api.delete(layout.block, { token })).status).toBe(204);
    expect((await api.get(layout.row, { token })).status).toBe(404);
    expect((await api.get(layout.column, { token })).status).toBe(404);
    expect((await api.get(`${layout.contents}/${content._id}`, { token })).status).toBe(404);
    expect((await api.get(layout.project, { token })).body.blocks).toEqual([]);
  });

  it('rejects descriptions over 500 characters', async () => {
    const layout = await createLayout(api, token);
    const response = await api.put(layout.row, { description: 'x'.repeat(501) }, { token });
    expect(response.status).toBe(400);
    expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(
      '/description',
    );
  });
});
