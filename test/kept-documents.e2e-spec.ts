import { jest } from '@jest/globals';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import {
  Api,
  createLayout,
  type LayoutPaths,
  type Response,
  startTestApp,
} from './support/test-app';

/** The layout statements (named `<repository>.<resource>.document|revision`) sent meanwhile. */
async function layoutStatementsOf(request: () => Promise<unknown>): Promise<string[]> {
  const query = jest.spyOn(Client.prototype, 'query');
  try {
    await request();
    return query.mock.calls
      .map(([config]) => (config as { name?: unknown }).name)
      .filter((name): name is string => typeof name === 'string')
      .filter((name) => /\.(document|revision)$/.test(name));
  } finally {
    query.mockRestore();
  }
}

const documentStatements = (names: string[]) => names.filter((name) => name.endsWith('.document'));

/** The size of the column `columnId` wherever it is in a document (undefined when absent). */
function sizeOf(document: unknown, columnId: string): number | undefined {
  if (typeof document !== 'object' || document === null) return undefined;
  const node = document as Record<string, unknown>;
  if (node._id === columnId) return Number(node.size);
  for (const value of Object.values(node)) {
    const size = sizeOf(value, columnId);
    if (size !== undefined) return size;
  }
  return undefined;
}

const idOf = (path: string) => path.split('/').pop() as string;

interface Layout extends LayoutPaths {
  content: string;
}

/** Every read of the tree, by what it reads. */
const readsOf = (layout: Layout): Record<string, string> => ({
  project: layout.project,
  'project blocks': `${layout.project}/blocks`,
  block: layout.block,
  'block rows': `${layout.block}/rows`,
  row: layout.row,
  'row columns': layout.columns,
  column: layout.column,
  'column contents': layout.contents,
  content: layout.content,
});

/**
 * Issue 20: a read of a representation this instance has built already serves the bytes it
 * built, after the small statement that says the tag is still current (and that the caller
 * owns the project); a change is read at once, and another account still gets 404.
 */
describe('documents kept by an instance', () => {
  let app: NestFastifyApplication;
  let api: Api;
  let token: string;

  beforeAll(async () => {
    app = await startTestApp();
    api = new Api(app);
    ({ token } = await api.newAccount('keeper'));
  });
  afterAll(() => app.close());

  /** project > block > row > column > one text content, of `html` (large enough to compress). */
  async function newLayout(client = api, html = '<p>Café ✓</p>'): Promise<Layout> {
    const paths = await createLayout(client, token, 6);
    const content = await client.post(paths.contents, { type: 'text', data: { html } }, { token });
    expect(content.status).toBe(201);
    return { ...paths, content: `${paths.contents}/${content.body._id}` };
  }

  const read = (path: string, headers: Record<string, string> = {}, client = api) =>
    client.get(path, { token, headers });

  it('reads an unchanged resource again with its revision statement alone: the same bytes, the same tag', async () => {
    const layout = await newLayout();
    for (const [what, path] of Object.entries(readsOf(layout))) {
      const first = await read(path);
      let again: Response | undefined;
      const sent = await layoutStatementsOf(async () => (again = await read(path)));
      expect([what, again?.status, sent.length, documentStatements(sent)]).toEqual([
        what,
        200,
        1,
        [],
      ]);
      expect(sent[0]).toMatch(/\.revision$/);
      expect([what, again?.text, again?.headers.etag]).toEqual([
        what,
        first.text,
        first.headers.etag,
      ]);
    }
  });

  it('compresses the kept bytes into the same document', async () => {
    const layout = await newLayout(api, `<p>${'Café ✓ '.repeat(1000)}</p>`);
    const plain = await read(layout.project);
    for (const encoding of ['br', 'gzip']) {
      let compressed: Response | undefined;
      const sent = await layoutStatementsOf(
        async () => (compressed = await read(layout.project, { 'accept-encoding': encoding })),
      );
      expect(documentStatements(sent)).toEqual([]);
      expect(compressed?.headers['content-encoding']).toBe(encoding);
      expect([compressed?.text, compressed?.headers.etag]).toEqual([
        plain.text,
        plain.headers.etag,
      ]);
    }
  });

  it('reads a change at once: new bytes and tags where the representation changed, kept bytes elsewhere', async () => {
    const layout = await newLayout();
    const before = new Map<string, Response>();
    for (const [what, path] of Object.entries(readsOf(layout))) before.set(what, await read(path));

    expect((await api.put(layout.column, { size: 4 }, { token })).status).toBe(200);

    // A list's document holds its children's subtrees: every one above the column changed.
    const changed = [
      'project',
      'project blocks',
      'block',
      'block rows',
      'row',
      'row columns',
      'column',
    ];
    for (const [what, path] of Object.entries(readsOf(layout))) {
      let after: Response | undefined;
      const sent = await layoutStatementsOf(async () => (after = await read(path)));
      const old = before.get(what) as Response;
      if (changed.includes(what)) {
        expect([what, documentStatements(sent).length]).toEqual([what, 1]);
        expect([what, after?.headers.etag === old.headers.etag]).toEqual([what, false]);
        expect([what, sizeOf(after?.body, idOf(layout.column))]).toEqual([what, 4]);
      } else {
        expect([what, documentStatements(sent), after?.text]).toEqual([what, [], old.text]);
      }
    }
  });

  it('answers a tag that is no longer current with the new bytes, built once for every editor', async () => {
    const layout = await newLayout();
    const seen = await read(layout.columns);
    expect((await api.put(layout.column, { size: 3 }, { token })).status).toBe(200);

    // Every open editor reads again at once, with the tag it has.
    let answers: Response[] = [];
    const sent = await layoutStatementsOf(async () => {
      answers = await Promise.all(
        Array.from({ length: 8 }, () =>
          read(layout.columns, { 'if-none-match': seen.headers.etag as string }),
        ),
      );
    });
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((answer) => answer.text)).size).toBe(1);
    expect(sizeOf(answers[0].body, idOf(layout.column))).toBe(3);
    expect(documentStatements(sent)).toEqual(['nodes.column.list.document']);
    expect(sent.filter((name) => name.endsWith('.revision'))).toHaveLength(8);

    // The current tag is still a 304, from the revision statement alone.
    const current = answers[0].headers.etag as string;
    let unchanged: Response | undefined;
    const revalidated = await layoutStatementsOf(
      async () => (unchanged = await read(layout.columns, { 'if-none-match': current })),
    );
    expect([unchanged?.status, revalidated]).toEqual([304, ['nodes.column.list.revision']]);
  });

  it('still answers another account 404 for each read, kept bytes or not, building nothing', async () => {
    const layout = await newLayout();
    const stranger = await api.newAccount('stranger');
    const variants: Record<string, string>[] = [
      {},
      { 'if-none-match': '*' },
      { 'accept-encoding': 'br' },
    ];
    for (const [what, path] of Object.entries(readsOf(layout))) {
      expect((await read(path)).status).toBe(200);
      for (const headers of variants) {
        let refused: Response | undefined;
        const sent = await layoutStatementsOf(
          async () => (refused = await api.get(path, { token: stranger.token, headers })),
        );
        expect([what, refused?.status, documentStatements(sent)]).toEqual([what, 404, []]);
        expect(refused?.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(refused?.headers.etag).toBeUndefined();
      }
    }
  });

  it('reads on another instance what this one changed', async () => {
    const other = await startTestApp();
    try {
      const otherApi = new Api(other);
      const layout = await newLayout();
      const kept = await read(layout.row, {}, otherApi);
      expect((await read(layout.row, {}, otherApi)).text).toBe(kept.text);
      expect((await api.put(layout.column, { size: 2 }, { token })).status).toBe(200);
      const after = await read(layout.row, {}, otherApi);
      expect(after.headers.etag).not.toBe(kept.headers.etag);
      expect(sizeOf(after.body, idOf(layout.column))).toBe(2);
    } finally {
      await other.close();
    }
  });

  it('keeps nothing with READ_CACHE_BYTES=0: every read builds its document', async () => {
    const uncached = await startTestApp({ READ_CACHE_BYTES: '0' });
    try {
      const client = new Api(uncached);
      const layout = await newLayout(client);
      await read(layout.columns, {}, client);
      const sent = await layoutStatementsOf(() => read(layout.columns, {}, client));
      expect(sent).toEqual(['nodes.column.list.document']);
    } finally {
      await uncached.close();
    }
  });
});
