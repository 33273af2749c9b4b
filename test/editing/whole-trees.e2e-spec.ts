import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { BLOCKS_PER_PROJECT_MAX, DUPLICATE_NODES_MAX } from '@layout/contracts';
import { Api, startTestApp } from '../support/test-app';
import { allIds, idOf, withoutIds } from '../support/tree-builder';
import { checkTreeAccounts } from '../support/tree-invariants';

/** The seed's shape: 5 blocks of 3 rows of 3 columns (4 each) of 2 text contents. */
function seedProject(title = 'Seed') {
  return {
    title,
    blocks: Array.from({ length: 5 }, (_, b) => ({
      description: `Block ${b}`,
      rows: Array.from({ length: 3 }, (_, r) => ({
        description: `Row ${r}`,
        columns: Array.from({ length: 3 }, (_, c) => ({
          size: 4,
          contents: Array.from({ length: 2 }, (_, i) => ({
            type: 'text',
            data: { html: `<p>Content ${b}.${r}.${c}.${i} with some ordinary words</p>` },
          })),
        })),
      })),
    })),
  };
}

/** A tree with every content type and every style member set. */
const EVERY_KIND = {
  title: 'Every kind',
  blocks: [
    {
      description: 'Styled',
      style: {
        backgroundColor: '#fafafa',
        backgroundImage: 'https://example.com/bg.png',
        backgroundRepeat: 'no-repeat',
        backgroundSize: 'cover',
        backgroundPosition: 'center top',
        opacity: 0.8,
      },
      rows: [
        {
          description: 'All types',
          columns: [
            {
              size: 6,
              contents: [
                { type: 'empty' },
                {
                  type: 'text',
                  style: { opacity: 0.5, backgroundSize: '50% auto' },
                  data: { html: '<p>Hi <strong>there</strong><script>alert(1)</script></p>' },
                },
                {
                  type: 'image',
                  data: { url: 'https://example.com/a.png', width: 600, height: '50%', alt: 'A' },
                },
              ],
            },
            {
              size: 6,
              contents: [
                { type: 'video', data: { url: 'https://vimeo.com/76979871' } },
                {
                  type: 'quote',
                  data: {
                    options: { currency: 'EUR' },
                    content: {
                      fields: [
                        { id: 'name', label: 'Item', show: true },
                        { id: 'quantity', label: 'Quantity', show: true },
                        { id: 'price', label: 'Price', show: true },
                      ],
                      items: [{ id: '1', name: 'Design', quantity: 2, price: 500 }],
                    },
                  },
                },
              ],
            },
          ],
        },
      ],
    },
  ],
};

/**
 * CONTRACT part three, "Whole trees in one request": a create at any level carries its new
 * node's children in the shape reads answer, the members a read adds ignored, every rule
 * checked on every node with the first violation's pointer, one transaction and one revision,
 * and `?format=portable` the export that posts back as a copy.
 */
describe('whole trees in one request', () => {
  let app: NestFastifyApplication;
  let api: Api;
  let token: string;

  beforeAll(async () => {
    app = await startTestApp();
    api = new Api(app);
    ({ token } = await api.newAccount('trees'));
  });
  afterAll(() => app.close());

  const projectCount = async () => ((await api.get('/projects', { token })).body as []).length;

  it('creates the seed’s project whole, at revision 1, and a read posted back makes an equal copy', async () => {
    const created = await api.post('/projects', seedProject(), { token });
    expect(created.status).toBe(201);
    expect(created.headers.location).toBe(`/projects/${created.body._id}`);
    expect([created.body.revision, created.headers.etag]).toEqual([1, '"r1"']);
    expect(created.body.blocks).toHaveLength(5);
    const read = await api.get(created.headers.location as string, { token });
    expect(read.body).toEqual(created.body);
    expect(await checkTreeAccounts(created.body._id)).toEqual({
      mismatches: [],
      storedTreeBytes: Buffer.byteLength(read.text),
    });
    const history = await api.get(`${created.headers.location}/revisions`, { token });
    expect(history.body).toHaveLength(1);
    expect(history.body[0]).toMatchObject({ revision: 1, operation: 'project.create' });

    const copy = await api.post('/projects', read.body, { token });
    expect(copy.status).toBe(201);
    expect(withoutIds(copy.body.blocks)).toEqual(withoutIds(read.body.blocks));
    const ids = new Set(allIds(read.body));
    expect(allIds(copy.body).filter((id) => ids.has(id))).toEqual([]);
    expect(copy.body.title).toBe('Seed');
  });

  it('copies a tree with every content type and style, through the export too', async () => {
    const created = await api.post('/projects', EVERY_KIND, { token });
    expect([created.status, created.body.errors]).toEqual([201, undefined]);
    const contents = created.body.blocks[0].rows[0].columns[0].contents;
    expect(contents[1].data.html).toBe('<p>Hi <strong>there</strong></p>');
    expect(created.body.blocks[0].rows[0].columns[1].contents[0].data.provider).toBe('vimeo');

    const exported = await api.get(`${created.headers.location}?format=portable`, { token });
    expect(exported.status).toBe(200);
    expect(exported.headers.etag).toBe('"r1-portable"');
    expect(allIds(exported.body)).toEqual([]);
    expect(Object.keys(exported.body)).toEqual(['title', 'blocks']);
    expect(Object.keys(exported.body.blocks[0])).toEqual(['description', 'style', 'rows']);
    const again = await api.get(`${created.headers.location}?format=portable`, {
      token,
      headers: { 'if-none-match': '"r1-portable"' },
    });
    expect(again.status).toBe(304);
    const notPortable = await api.get(created.headers.location as string, {
      token,
      headers: { 'if-none-match': '"r1-portable"' },
    });
    expect(notPortable.status).toBe(200);

    const copy = await api.post('/projects', exported.body, { token });
    expect(copy.status).toBe(201);
    expect(withoutIds(copy.body.blocks)).toEqual(withoutIds(created.body.blocks));
    const unknown = await api.get(`${created.headers.location}?format=xml`, { token });
    expect(unknown.status).toBe(400);
  });

  it('creates a block, a row or a column with everything beneath it as one revision', async () => {
    const project = await api.post('/projects', { title: 'Nested' }, { token });
    const path = project.headers.location as string;
    const block = await api.post(`${path}/blocks`, seedProject().blocks[0], { token });
    expect(block.status).toBe(201);
    expect(block.body.rows).toHaveLength(3);
    expect(block.headers['project-revision']).toBe('2');
    expect(block.headers.location).toBe(`${path}/blocks/${block.body._id}`);

    // A read posted back, its ids and times ignored, at a place.
    const row = await api.post(
      `${block.headers.location}/rows`,
      { ...block.body.rows[1], position: 0 },
      { token },
    );
    expect(row.status).toBe(201);
    expect(withoutIds(row.body)).toEqual(withoutIds(block.body.rows[1]));
    expect(row.body._id).not.toBe(block.body.rows[1]._id);
    const rows = await api.get(`${block.headers.location}/rows`, { token });
    expect(rows.body.map((r: { _id: string }) => r._id)[0]).toBe(row.body._id);

    // The created node's own parent keeps its rule: a full row has no room for a column.
    const full = await api.post(
      `${block.headers.location}/rows/${block.body.rows[0]._id}/columns`,
      { size: 1, contents: [{ type: 'empty' }] },
      { token },
    );
    expect([full.status, full.body.availableSize]).toEqual([409, 0]);
    const roomy = await api.post(`${path}/blocks`, { description: 'room', rows: [{}] }, { token });
    const column2 = await api.post(
      `${roomy.headers.location}/rows/${roomy.body.rows[0]._id}/columns`,
      { _id: 'ignored', size: 5, contents: [{ _id: 'ignored too', type: 'empty' }] },
      { token },
    );
    expect(column2.status).toBe(201);
    expect(column2.body.contents[0]._id).not.toBe('ignored too');
    const history = await api.get(`${path}/revisions`, { token });
    expect(history.body.map((h: { operation: string }) => h.operation).slice(0, 4)).toEqual([
      'column.create',
      'block.create',
      'row.create',
      'block.create',
    ]);
    expect(await checkTreeAccounts(idOf(path))).toMatchObject({ mismatches: [] });
  });

  it('answers the first broken rule with its pointer and creates nothing', async () => {
    const before = await projectCount();
    const wide = seedProject();
    wide.blocks[1].rows[2].columns.push({ size: 1, contents: [] });
    const tooLarge = seedProject();
    tooLarge.blocks[0].rows[0].columns[0].contents[1].data.html = `<p>${'€'.repeat(99_000)}</p>`;
    const badSize = seedProject();
    (badSize.blocks[2].rows[0].columns[1] as { size: unknown }).size = 13;
    const cases: [object, number, string, string][] = [
      [wide, 409, '/problems/row-width-exceeded', '/blocks/1/rows/2/columns/3/size'],
      [tooLarge, 413, '/problems/payload-too-large', '/blocks/0/rows/0/columns/0/contents/1/data'],
      [
        {
          title: 'Many',
          blocks: Array.from({ length: BLOCKS_PER_PROJECT_MAX + 1 }, () => ({ description: '' })),
        },
        409,
        '/problems/limit-exceeded',
        `/blocks/${BLOCKS_PER_PROJECT_MAX}`,
      ],
    ];
    for (const [body, status, type, pointer] of cases) {
      const answer = await api.post('/projects', body, { token });
      expect([answer.status, answer.body.type, answer.body.pointer]).toEqual([
        status,
        type,
        pointer,
      ]);
    }
    const invalid = await api.post('/projects', badSize, { token });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual([
      '/blocks/2/rows/0/columns/1/size',
    ]);
    expect(await projectCount()).toBe(before);
  });

  it('holds a row of the tree to its width, not to a count, and takes read members anywhere', async () => {
    const narrow = { size: 1, contents: [{ type: 'empty', _id: 'x', createdAt: 'then' }] };
    const answer = await api.post(
      '/projects',
      {
        title: 'Narrow',
        blocks: [{ description: '', rows: [{ columns: Array(13).fill(narrow) }] }],
      },
      { token },
    );
    expect([
      answer.status,
      answer.body.type,
      answer.body.availableSize,
      answer.body.pointer,
    ]).toEqual([409, '/problems/row-width-exceeded', 0, '/blocks/0/rows/0/columns/12/size']);
    const read = {
      title: 'Read members',
      blocks: [
        {
          description: '',
          revision: 3,
          rows: [{ updatedAt: 'now', revision: 2, columns: [narrow] }],
        },
      ],
    };
    expect((await api.post('/projects', read, { token })).status).toBe(201);
  });

  it(`makes at most ${DUPLICATE_NODES_MAX} nodes in one create`, async () => {
    const before = await projectCount();
    const column = { size: 1, contents: Array.from({ length: 834 }, () => ({ type: 'empty' })) };
    const body = {
      title: 'Huge',
      blocks: [0, 1].map(() => ({ description: '', rows: [{ columns: Array(12).fill(column) }] })),
    };
    const answer = await api.post('/projects', body, { token });
    expect([answer.status, answer.body.type, answer.body.limit]).toEqual([
      409,
      '/problems/limit-exceeded',
      DUPLICATE_NODES_MAX,
    ]);
    expect(answer.body.pointer).toMatch(/^\/blocks\/1\/rows\/0\/columns\/\d+\/contents\/\d+$/);
    expect(await projectCount()).toBe(before);
  });
});
