import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { checkTreeAccounts } from './support/tree-invariants';
import { Api, createLayout, type LayoutPaths, startTestApp } from './support/test-app';

const DEFAULT_STYLE = {
  backgroundImage: '',
  backgroundRepeat: 'no-repeat',
  backgroundSize: 'cover',
  backgroundPosition: 'center center',
  opacity: 1,
};

describe('contents', () => {
  let app: NestFastifyApplication;
  let api: Api;
  let token: string;
  let layout: LayoutPaths;

  beforeAll(async () => {
    app = await startTestApp();
    api = new Api(app);
    ({ token } = await api.newAccount());
  });
  afterAll(() => app.close());
  beforeEach(async () => {
    layout = await createLayout(api, token);
  });

  const create = (body: unknown) => api.post(layout.contents, body, { token });

  it('creates an empty content with the default style and empty data (seed rule 1)', async () => {
    const response = await create({ type: 'empty' });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      _id: expect.any(String),
      type: 'empty',
      style: DEFAULT_STYLE,
      data: {},
    });
    expect(response.headers.location).toBe(`${layout.contents}/${response.body._id}`);
  });

  it('fills in the style members left out', async () => {
    const response = await create({
      type: 'text',
      style: { opacity: 0.5, backgroundSize: '50% auto' },
    });
    expect(response.body.style).toEqual({
      ...DEFAULT_STYLE,
      opacity: 0.5,
      backgroundSize: '50% auto',
    });
  });

  it.each([
    [{ type: 'carousel' }, '/type'],
    [{}, '/type'],
    [{ type: 'empty', style: { opacity: 1.5 } }, '/style/opacity'],
    [
      { type: 'empty', style: { backgroundImage: 'javascript:alert(1)' } },
      '/style/backgroundImage',
    ],
    [{ type: 'empty', style: { backgroundRepeat: 'sometimes' } }, '/style/backgroundRepeat'],
    [{ type: 'empty', style: { color: 'red' } }, '/style/color'],
    [{ type: 'empty', data: { html: 'x' } }, '/data/html'],
    [{ type: 'image', data: { html: 'x' } }, '/data/html'],
    [{ type: 'image', data: { url: 'ftp://example.com/a.png' } }, '/data/url'],
    [{ type: 'video', data: { provider: 'myspace' } }, '/data/provider'],
    [{ type: 'text', data: 'hello' }, '/data'],
    [{ type: 'text', data: { html: 'x'.repeat(100_001) } }, '/data/html'],
    [{ type: 'empty', position: -1 }, '/position'],
  ])('rejects %j with 400 pointing at %s and stores nothing', async (body, pointer) => {
    const response = await create(body);
    expect(response.status).toBe(400);
    expect(response.body.type).toBe('/problems/validation');
    expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
    expect((await api.get(layout.contents, { token })).body).toEqual([]);
  });

  it('stores text HTML sanitised, keeping ordinary formatting', async () => {
    const html =
      '<p onclick="steal()">Hello <strong>bold</strong> <a href="javascript:alert(1)">x</a>' +
      '<script>alert(1)</script><iframe src="https://evil.example"></iframe><em>ok</em></p>';
    const response = await create({ type: 'text', data: { html } });
    expect(response.status).toBe(201);
    const stored = response.body.data.html as string;
    expect(stored).toContain('<strong>bold</strong>');
    expect(stored).toContain('<em>ok</em>');
    expect(stored).not.toMatch(/script|onclick|javascript:|iframe/i);
  });

  it('infers the video provider from the URL when left out', async () => {
    const youtube = await create({
      type: 'video',
      data: { url: 'https://www.youtube.com/watch?v=abc' },
    });
    expect(youtube.body.data).toEqual({
      url: 'https://www.youtube.com/watch?v=abc',
      provider: 'youtube',
    });
    const file = await create({ type: 'video', data: { url: 'https://cdn.example.com/a.mp4' } });
    expect(file.body.data.provider).toBe('file');
    const given = await create({
      type: 'video',
      data: { url: 'https://vimeo.com/1', provider: 'file' },
    });
    expect(given.body.data.provider).toBe('file');
  });

  it('stores URLs normalised, so that they cannot break out of a CSS url()', async () => {
    const breakout = 'https://e.com/a.png);background-image:url(javascript:alert(1)';
    const stored = 'https://e.com/a.png%29;background-image:url%28javascript:alert%281%29';
    const image = await create({
      type: 'image',
      style: { backgroundImage: breakout },
      data: { url: 'https://en.wikipedia.org/wiki/File:Foo_(bar).png' },
    });
    expect(image.status).toBe(201);
    expect(image.body.style.backgroundImage).toBe(stored);
    expect(image.body.data.url).toBe('https://en.wikipedia.org/wiki/File:Foo_%28bar%29.png');
    const video = await create({
      type: 'video',
      data: { url: 'HTTPS://WWW.YouTube.com/watch?v=a(b)' },
    });
    expect(video.body.data).toEqual({
      url: 'https://www.youtube.com/watch?v=a%28b%29',
      provider: 'youtube',
    });
    // The read answers the same (stored) form; sending it back changes nothing.
    const read = await api.get(`${layout.contents}/${image.body._id}`, { token });
    expect(read.body).toEqual(image.body);
    const again = await api.put(
      `${layout.contents}/${image.body._id}`,
      { type: 'image', style: image.body.style, data: image.body.data },
      { token },
    );
    expect(again.body).toEqual(image.body);
    const refused = await create({ type: 'image', data: { url: 'https://a(b).com/x.png' } });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([{ pointer: '/data/url', detail: expect.any(String) }]);
  });

  it('accepts a price quote', async () => {
    const data = {
      options: { currency: 'EUR' },
      content: {
        fields: [
          { id: 'name', label: 'Item', show: true },
          { id: 'quantity', label: 'Qty', show: true },
          { id: 'price', label: 'Price', show: true },
        ],
        items: [{ id: 'i1', name: 'Design', quantity: 2, price: 150.5 }],
      },
    };
    const response = await create({ type: 'quote', data });
    expect(response.status).toBe(201);
    expect(response.body.data).toEqual(data);
    // Options that name no currency name the default one.
    const priced = await create({ type: 'quote', data: { ...data, options: {} } });
    expect(priced.body.data).toEqual({ ...data, options: { currency: 'USD' } });
    const read = await api.get(`${layout.contents}/${priced.body._id}`, { token });
    expect(read.body.data.options).toEqual({ currency: 'USD' });
    const negative = await create({
      type: 'quote',
      data: { content: { fields: data.content.fields, items: [{ id: 'i1', price: -1 }] } },
    });
    expect(negative.status).toBe(400);
  });

  it('requires type on update (seed rule 2)', async () => {
    const content = (await create({ type: 'text', data: { html: 'a' } })).body;
    const response = await api.put(
      `${layout.contents}/${content._id}`,
      { data: { html: 'b' } },
      { token },
    );
    expect(response.status).toBe(400);
    expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toContain('/type');
    expect((await api.get(`${layout.contents}/${content._id}`, { token })).body).toEqual(content);
  });

  it('keeps the members left out of an update', async () => {
    const content = (await create({ type: 'text', style: { opacity: 0.3 }, data: { html: 'a' } }))
      .body;
    const path = `${layout.contents}/${content._id}`;
    const styleOnly = await api.put(
      path,
      { type: 'text', style: { backgroundRepeat: 'repeat' } },
      { token },
    );
    expect(styleOnly.status).toBe(200);
    // A given style replaces the stored one whole; its missing members take their defaults.
    expect(styleOnly.body).toEqual({
      ...content,
      style: { ...DEFAULT_STYLE, backgroundRepeat: 'repeat' },
    });
    const dataOnly = await api.put(path, { type: 'text', data: { html: 'b' } }, { token });
    expect(dataOnly.body.style).toEqual(styleOnly.body.style);
    expect(dataOnly.body.data).toEqual({ html: 'b' });
  });

  it('resets data when the type changes and data is left out', async () => {
    const content = (await create({ type: 'text', data: { html: 'a' } })).body;
    const response = await api.put(
      `${layout.contents}/${content._id}`,
      { type: 'image' },
      { token },
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...content, type: 'image', data: {} });
    expect((await api.get(`${layout.contents}/${content._id}`, { token })).body).toEqual(
      response.body,
    );
    // The same type keeps the data, a new one given data takes it, and a style alone keeps both.
    const withData = await api.put(
      `${layout.contents}/${content._id}`,
      { type: 'video', data: { url: 'https://vimeo.com/1' } },
      { token },
    );
    expect(withData.body.data).toMatchObject({ url: 'https://vimeo.com/1' });
    const styled = await api.put(
      `${layout.contents}/${content._id}`,
      { type: 'video', style: { opacity: 0.5 } },
      { token },
    );
    expect(styled.body).toEqual({ ...withData.body, style: { ...DEFAULT_STYLE, opacity: 0.5 } });
  });

  it('orders contents and moves them with position', async () => {
    const a = (await create({ type: 'empty' })).body._id;
    const b = (await create({ type: 'text' })).body._id;
    const c = (await create({ type: 'image', position: 1 })).body._id;
    const ids = async () =>
      ((await api.get(layout.contents, { token })).body as { _id: string }[]).map((x) => x._id);
    expect(await ids()).toEqual([a, c, b]);
    const first = (await create({ type: 'empty', position: 0 })).body._id;
    const last = (await create({ type: 'empty', position: 99 })).body._id;
    expect(await ids()).toEqual([first, a, c, b, last]);
    await api.delete(`${layout.contents}/${first}`, { token });
    await api.delete(`${layout.contents}/${last}`, { token });
    await api.put(`${layout.contents}/${a}`, { type: 'empty', position: 2 }, { token });
    expect(await ids()).toEqual([c, b, a]);
    expect(
      ((await api.get(layout.column, { token })).body.contents as { _id: string }[]).map(
        (x) => x._id,
      ),
    ).toEqual([c, b, a]);
  });

  it('keeps every content, in one order, under concurrent creates appended or at a position', async () => {
    const responses = await Promise.all(
      Array.from({ length: 24 }, (_, n) =>
        create({
          type: 'empty',
          ...(n % 3 === 0 && { position: 0 }),
          ...(n % 3 === 1 && { position: 99 }),
        }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(24).fill(201));
    const listed = (await api.get(layout.contents, { token })).body as { _id: string }[];
    expect(listed.map((content) => content._id).sort()).toEqual(
      responses.map((response) => response.body._id as string).sort(),
    );
    const column = await api.get(layout.column, { token });
    expect(column.body.contents).toEqual(listed);
    const accounts = await checkTreeAccounts(layout.project.split('/').pop() ?? '');
    expect(accounts.mismatches).toEqual([]);
    const project = await api.get(layout.project, { token });
    expect(accounts.storedTreeBytes).toBe(Buffer.byteLength(project.text));
  });

  it('deletes with 204 and then answers 404', async () => {
    const content = (await create({ type: 'empty' })).body;
    const path = `${layout.contents}/${content._id}`;
    const response = await api.delete(path, { token });
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect((await api.get(path, { token })).status).toBe(404);
    expect((await api.put(path, { type: 'empty' }, { token })).status).toBe(404);
  });

  it('creates nothing through a column reached by another row', async () => {
    const other = await createLayout(api, token);
    const columnId = layout.column.split('/').pop();
    const response = await api.post(
      `${other.columns}/${columnId}/contents`,
      { type: 'empty' },
      { token },
    );
    expect(response.status).toBe(404);
    expect((await api.get(layout.contents, { token })).body).toEqual([]);
  });

  it('answers 404 for a content reached through another column', async () => {
    const content = (await create({ type: 'empty' })).body;
    const other = await createLayout(api, token);
    expect((await api.get(`${other.contents}/${content._id}`, { token })).status).toBe(404);
    expect((await api.delete(`${other.contents}/${content._id}`, { token })).status).toBe(404);
    expect((await api.get(`${layout.contents}/${content._id}`, { token })).status).toBe(200);
  });

  it('answers 404 to its id in capitals, in a path or as a move’s column: ids are opaque strings', async () => {
    const content = (await create({ type: 'empty' })).body;
    const path = `${layout.contents}/${content._id}`;
    const shouted = `${layout.contents}/${(content._id as string).toUpperCase()}`;
    const column = layout.column.split('/').pop() as string;
    const upperColumn = `${layout.columns}/${column.toUpperCase()}/contents`;
    expect((await api.get(shouted, { token })).status).toBe(404);
    expect((await api.put(shouted, { type: 'empty' }, { token })).status).toBe(404);
    expect((await api.get(upperColumn, { token })).status).toBe(404);
    const moved = await api.post(`${path}/move`, { columnId: column.toUpperCase() }, { token });
    expect([moved.status, moved.body.type]).toEqual([404, '/problems/not-found']);
    expect((await api.get(path, { token })).status).toBe(200);
  });

  it('answers 404 to a parent id of any wrong shape in a move’s or a copy’s body, 400 to a non-string', async () => {
    const content = `${layout.contents}/${(await create({ type: 'empty' })).body._id}`;
    const before = (await api.get(layout.project, { token })).body.revision as number;
    const wrong = ['', 'x'.repeat(101), 'a\u0000b', `${'0'.repeat(36)}\n`, 'é'.repeat(40)];
    const bodies = [
      ...wrong.map((id) => [`${content}/move`, { columnId: id }] as const),
      ...wrong.map((id) => [`${content}/duplicate`, { columnId: id }] as const),
      ...wrong.map((id) => [`${layout.column}/move`, { rowId: id }] as const),
      ...wrong.map((id) => [`${layout.row}/duplicate`, { blockId: id }] as const),
    ];
    for (const [url, body] of bodies) {
      const answer = await api.post(url, body, { token });
      expect({ url, body, status: answer.status, type: answer.body.type }).toEqual({
        url,
        body,
        status: 404,
        type: '/problems/not-found',
      });
    }
    for (const columnId of [42, null, ['x'], { id: 'x' }]) {
      const answer = await api.post(`${content}/move`, { columnId }, { token });
      expect({ columnId, status: answer.status }).toEqual({ columnId, status: 400 });
      expect(answer.body.errors).toEqual([
        { pointer: '/columnId', detail: 'must be a string: the id of a resource' },
      ]);
    }
    // Nothing moved or was copied.
    expect((await api.get(layout.project, { token })).body.revision).toBe(before);
  });
});
