import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Api, createLayout, type Response, startTestApp } from '../support/test-app';
import { eventually } from '../support/eventually';

/** CONTRACT.md, part two, "Revisions". */
describe('revisions', () => {
  let app: NestFastifyApplication;
  let api: Api;
  let token: string;

  beforeAll(async () => {
    app = await startTestApp();
    api = new Api(app);
    ({ token } = await api.newAccount('revisions'));
  });
  afterAll(() => app.close());

  const revisionOf = async (project: string) =>
    (await api.get(project, { token })).body.revision as number;
  const expectRevision = (response: Response, status: number, revision: number) => {
    expect(response.status).toBe(status);
    expect(response.headers['project-revision']).toBe(String(revision));
  };

  it('starts at 1 and takes one more for every committed write, which answers it', async () => {
    const created = await api.post('/projects', { title: 'Revisions' }, { token });
    expectRevision(created, 201, 1);
    expect(created.body.revision).toBe(1);
    const project = created.headers.location as string;

    const block = await api.post(`${project}/blocks`, { description: 'b' }, { token });
    expectRevision(block, 201, 2);
    const rows = `${block.headers.location}/rows`;
    const row = await api.post(rows, {}, { token });
    expectRevision(row, 201, 3);
    const columns = `${row.headers.location}/columns`;
    // One request that writes several nodes is one revision.
    const column = await api.post(
      columns,
      { size: 6, contents: [{ type: 'empty' }, { type: 'text', data: { html: '<p>x</p>' } }] },
      { token },
    );
    expectRevision(column, 201, 4);
    const contents = `${column.headers.location}/contents`;
    const content = await api.post(contents, { type: 'empty' }, { token });
    expectRevision(content, 201, 5);

    expectRevision(
      await api.put(content.headers.location as string, { type: 'text' }, { token }),
      200,
      6,
    );
    expectRevision(
      await api.put(column.headers.location as string, { size: 4, contents: [] }, { token }),
      200,
      7,
    );
    expectRevision(
      await api.put(row.headers.location as string, { description: 'r' }, { token }),
      200,
      8,
    );
    expectRevision(
      await api.put(block.headers.location as string, { description: 'B' }, { token }),
      200,
      9,
    );
    expectRevision(await api.put(project, { title: 'Renamed' }, { token }), 200, 10);
    expectRevision(await api.delete(column.headers.location as string, { token }), 204, 11);

    const read = await api.get(project, { token });
    expect(read.body.revision).toBe(11);
    expect(read.headers['project-revision']).toBeUndefined();
    const listed = (await api.get('/projects', { token })).body as {
      _id: string;
      revision: number;
    }[];
    expect(listed.find((p) => project.endsWith(p._id))?.revision).toBe(11);
    // Deleting the project is a write of it too.
    expectRevision(await api.delete(project, { token }), 204, 12);
  });

  it('moves updatedAt with every revision, and only then', async () => {
    const layout = await createLayout(api, token);
    const before = (await api.get(layout.project, { token })).body;
    // The clock past the last revision's time, which the next one's must then exceed.
    await eventually(
      () => Date.now() > Date.parse(before.updatedAt),
      'the clock past the last revision',
    );
    await api.post(layout.contents, { type: 'empty' }, { token });
    const after = (await api.get(layout.project, { token })).body;
    expect(after.revision).toBe(before.revision + 1);
    expect(Date.parse(after.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
    await api.put(layout.column, { size: 6 }, { token }); // changes nothing
    expect((await api.get(layout.project, { token })).body).toEqual(after);
  });

  it('takes none for a rejected or failed request', async () => {
    const layout = await createLayout(api, token, 8);
    const second = (await api.post(layout.columns, { size: 4 }, { token })).headers
      .location as string;
    const before = await api.get(layout.project, { token });
    const refused: [string, Promise<Response>][] = [
      ['validation', api.post(layout.contents, { type: 'poem' }, { token })],
      ['row width on create', api.post(layout.columns, { size: 1 }, { token })],
      ['row width on update', api.put(second, { size: 5, position: 0 }, { token })],
      [
        'not found',
        api.put(`${layout.columns}/0190a6f0-0000-7000-8000-000000000000`, { size: 1 }, { token }),
      ],
      [
        'precondition',
        api.put(layout.column, { size: 3 }, { token, headers: { 'if-match': '"r999"' } }),
      ],
      [
        'unknown content id',
        api.put(layout.column, { contents: [{ _id: 'nope', type: 'empty' }] }, { token }),
      ],
      [
        'malformed JSON',
        api.request('PUT', layout.column, {
          token,
          raw: '{',
          headers: { 'content-type': 'application/json' },
        }),
      ],
    ];
    for (const [what, call] of refused) {
      const response = await call;
      expect([what, response.status]).toEqual([what, expect.any(Number)]);
      expect([what, response.status >= 400 && response.status < 500]).toEqual([what, true]);
      expect(response.headers['project-revision']).toBeUndefined();
    }
    const after = await api.get(layout.project, { token });
    expect(after.body).toEqual(before.body);
    expect(after.headers.etag).toBe(before.headers.etag);
  });

  it('answers the current revision to a write that changes nothing', async () => {
    const layout = await createLayout(api, token, 6);
    const revision = await revisionOf(layout.project);
    const content = await api.post(
      layout.contents,
      { type: 'text', data: { html: '<p>a</p>' } },
      { token },
    );
    const path = content.headers.location as string;
    const same = await api.put(path, { type: 'text', data: { html: '<p>a</p>' } }, { token });
    expectRevision(same, 200, revision + 1);
    expect(same.headers.etag).toBe(content.headers.etag);
    expect(same.body).toEqual(content.body);
    expectRevision(await api.put(layout.column, { size: '6' }, { token }), 200, revision + 1);
    expectRevision(
      await api.put(path, { type: 'text', position: 0 }, { token }),
      200,
      revision + 1,
    );
    expect(await revisionOf(layout.project)).toBe(revision + 1);
  });

  it('keeps the tag and the bytes of a content whose style and data come back in another key order', async () => {
    const layout = await createLayout(api, token, 6);
    const created = await api.post(
      layout.contents,
      {
        type: 'image',
        style: { opacity: 0.5, backgroundSize: 'contain' },
        data: { url: 'https://e.com/a.png', alt: 'x' },
      },
      { token },
    );
    const text = await api.post(
      layout.contents,
      { type: 'text', data: { html: '<p>a</p>' } },
      { token },
    );
    const image = created.headers.location as string;
    const stored = await api.get(layout.contents, { token });
    const revision = await revisionOf(layout.project);
    // Every member as stored, each object's keys reversed: the same values, another text.
    const reversed = (value: object): object => Object.fromEntries(Object.entries(value).reverse());
    const elements = (
      stored.body as { _id: string; type: string; style: object; data: object }[]
    ).map((content) => ({
      _id: content._id,
      type: content.type,
      style: reversed(content.style),
      data: reversed(content.data),
    }));
    // One new content beside them, so that the column's contents are written.
    const put = await api.put(
      layout.column,
      { contents: [...elements, { type: 'empty' }] },
      { token },
    );
    expectRevision(put, 200, revision + 1);
    for (const [path, before] of [
      [image, created],
      [text.headers.location as string, text],
    ] as const) {
      const after = await api.get(path, { token });
      expect(after.headers.etag).toBe(before.headers.etag);
      expect(after.text).toBe(before.text);
    }
    // A content moved with its members in another order keeps its bytes; its tag becomes the
    // move's, as any moved node's does.
    const beforeMove = await revisionOf(layout.project);
    const moved = await api.put(
      image,
      {
        type: 'image',
        style: reversed(created.body.style),
        data: reversed(created.body.data),
        position: 5,
      },
      { token },
    );
    expect(moved.status).toBe(200);
    expect(moved.headers.etag).toBe(`"r${beforeMove + 1}"`);
    expect(moved.text).toBe(created.text);
  });

  it('numbers concurrent writes without a gap or a repeat', async () => {
    const layout = await createLayout(api, token, 6);
    const other = (await api.post(layout.columns, { size: 6 }, { token })).headers
      .location as string;
    const start = await revisionOf(layout.project);
    const responses = await Promise.all([
      ...Array.from({ length: 16 }, (_, n) =>
        api.post(n % 2 ? layout.contents : `${other}/contents`, { type: 'empty' }, { token }),
      ),
      ...Array.from({ length: 8 }, (_, n) =>
        api.put(layout.project, { title: `T${n}` }, { token }),
      ),
    ]);
    expect(responses.map((response) => response.status).sort()).toEqual([
      ...Array(8).fill(200),
      ...Array(16).fill(201),
    ]);
    const revisions = responses.map((response) => Number(response.headers['project-revision']));
    expect(revisions.sort((a, b) => a - b)).toEqual(
      Array.from({ length: 24 }, (_, i) => start + 1 + i),
    );
    expect(await revisionOf(layout.project)).toBe(start + 24);
  });
});
