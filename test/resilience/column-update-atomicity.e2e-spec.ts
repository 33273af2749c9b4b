import { randomBytes } from 'node:crypto';
import { type AddressInfo } from 'node:net';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Api, startTestApp } from '../support/test-app';
import { query, testDatabaseUrl } from './support/databases';
import { describeOutcome, send } from './support/http';

const MARKER = '__fail_here__';
const suffix = randomBytes(4).toString('hex');
const FUNCTION = `resilience_fail_marked_${suffix}`;
const TRIGGER = `resilience_fail_marked_${suffix}`;

/**
 * A real failure in the middle of a column update: a trigger makes PostgreSQL refuse to insert
 * or update a content whose html is the marker, after the update has already changed the size,
 * moved the column, deleted, updated or inserted other contents.
 */
async function installTrigger() {
  const url = testDatabaseUrl();
  await query(
    url,
    `CREATE FUNCTION ${FUNCTION}() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       IF NEW.data->>'html' = '${MARKER}' THEN
         RAISE EXCEPTION 'injected failure for a resilience test';
       END IF;
       RETURN NEW;
     END $$`,
  );
  await query(
    url,
    `CREATE TRIGGER ${TRIGGER} BEFORE INSERT OR UPDATE ON contents
     FOR EACH ROW EXECUTE FUNCTION ${FUNCTION}()`,
  );
}

async function dropTrigger() {
  const url = testDatabaseUrl();
  await query(url, `DROP TRIGGER IF EXISTS ${TRIGGER} ON contents`);
  await query(url, `DROP FUNCTION IF EXISTS ${FUNCTION}()`);
}

describe('a column update that fails midway changes nothing', () => {
  let app: NestFastifyApplication;
  let api: Api;
  let token: string;

  beforeAll(async () => {
    app = await startTestApp({ RATE_LIMIT_ENABLED: 'false' });
    api = new Api(app);
    ({ token } = await api.newAccount('atomicity'));
    await installTrigger();
  }, 60_000);
  afterAll(async () => {
    await dropTrigger();
    await app?.close();
  }, 30_000);

  /** A row with three columns; the middle one has four contents of different kinds. */
  async function layout() {
    const created = async (path: string, body: unknown) => {
      const response = await api.post(path, body, { token });
      if (response.status !== 201) throw new Error(`POST ${path}: ${response.text}`);
      return response.body;
    };
    const project = await created('/projects', { title: 'Atomicity' });
    const block = await created(`/projects/${project._id}/blocks`, { description: 'b' });
    const rowPath = `/projects/${project._id}/blocks/${block._id}/rows`;
    const row = await created(rowPath, { description: 'r' });
    const columnsPath = `${rowPath}/${row._id}/columns`;
    const left = await created(columnsPath, {
      size: 3,
      contents: [{ type: 'text', data: { html: '<p>left</p>' } }],
    });
    const middle = await created(columnsPath, {
      size: 4,
      contents: [
        { type: 'text', data: { html: '<p>one</p>' }, style: { opacity: 0.5 } },
        { type: 'image', data: { url: 'https://example.com/a.png', alt: 'a' } },
        { type: 'empty', style: { backgroundRepeat: 'repeat-x' } },
        {
          type: 'quote',
          data: {
            options: { currency: 'EUR' },
            content: {
              fields: [{ id: 'price', label: 'Price', show: true }],
              items: [{ id: 'i1', price: 10 }],
            },
          },
        },
      ],
    });
    const right = await created(columnsPath, { size: 2, contents: [{ type: 'empty' }] });
    const [text, image, empty, quote] = middle.contents.map((c: { _id: string }) => c._id);
    return {
      projectId: project._id as string,
      rowId: row._id as string,
      rowPath: `${rowPath}/${row._id}`,
      columnPath: `${columnsPath}/${middle._id}`,
      ids: { text, image, empty, quote, left: left._id, right: right._id },
    };
  }

  /** Everything the update could touch: the API's view of the row, and the stored rows. */
  async function snapshot(target: Awaited<ReturnType<typeof layout>>) {
    const url = testDatabaseUrl();
    return {
      row: (await api.get(target.rowPath, { token })).body,
      // A failed request takes no revision and leaves every counter as it was.
      project: await query(
        url,
        'SELECT revision, updated_at, children_bytes::text FROM projects WHERE id = $1',
        [target.projectId],
      ),
      column: (await api.get(target.columnPath, { token })).body,
      columns: await query(
        url,
        `SELECT id::text, sort_key::text, size, revision, list_revision, child_count,
           children_bytes::text FROM columns WHERE row_id = $1 ORDER BY sort_key`,
        [target.rowId],
      ),
      contents: await query(
        url,
        `SELECT c.id::text, c.column_id::text, c.sort_key::text, c.type::text, c.style, c.data,
           c.revision
           FROM contents c JOIN columns k ON k.id = c.column_id
          WHERE k.row_id = $1 ORDER BY k.sort_key, c.sort_key`,
        [target.rowId],
      ),
    };
  }

  async function expectFailsAndChangesNothing(
    target: Awaited<ReturnType<typeof layout>>,
    body: Record<string, unknown>,
  ) {
    const before = await snapshot(target);
    // Sent around Api, whose check insists on documented statuses: a failing database is
    // outside the document (and the contract), and 500 is what it gets.
    const response = await send({
      port: (app.getHttpServer().address() as AddressInfo).port,
      method: 'PUT',
      path: target.columnPath,
      headers: { authorization: `Bearer ${token}` },
      body,
      timeoutMs: 15_000,
    });
    if (response.kind !== 'answered') throw new Error(describeOutcome(response));
    expect(response.status).toBe(500);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body).toMatchObject({ type: '/problems/internal', status: 500 });
    // The database's message stays in the log.
    expect(response.text).not.toMatch(/injected|__fail_here__|trigger|contents|P0001/i);
    expect(await snapshot(target)).toEqual(before);
  }

  /** The same body without the marker succeeds: the request itself was valid. */
  async function expectSucceedsWithoutMarker(
    target: Awaited<ReturnType<typeof layout>>,
    body: Record<string, unknown>,
  ) {
    const unmarked = JSON.parse(JSON.stringify(body).replaceAll(MARKER, 'fine'));
    const response = await api.put(target.columnPath, unmarked, { token });
    expect(response.status).toBe(200);
    expect(response.body.size).toBe(String(unmarked.size));
    expect(response.body.contents).toHaveLength((unmarked.contents as unknown[]).length);
  }

  it('when an update of an existing content fails, after a delete, a move and other updates', async () => {
    const target = await layout();
    const { text, image, empty } = target.ids;
    // `quote` is left out (deleted first); `empty` moves to the front and changes style; the
    // failure comes at `text`; a new content and `image` would follow.
    const body = {
      size: 5,
      position: 0,
      contents: [
        { _id: empty, type: 'empty', style: { backgroundRepeat: 'round' } },
        { type: 'text', data: { html: '<p>new before</p>' } },
        { _id: text, type: 'text', data: { html: MARKER } },
        { _id: image, type: 'image', style: { opacity: 0.25 } },
        { type: 'empty' },
      ],
    };
    await expectFailsAndChangesNothing(target, body);
    await expectSucceedsWithoutMarker(target, body);
  }, 30_000);

  it('when an insert of a new content fails, after every delete and update has run', async () => {
    const target = await layout();
    const { text, image, quote } = target.ids;
    // `empty` is deleted, `image` becomes a text, `quote` moves; the new marked content is
    // inserted last of all writes.
    const body = {
      size: 6,
      position: 2,
      contents: [
        { _id: quote, type: 'quote' },
        { _id: image, type: 'text', data: { html: '<p>was an image</p>' } },
        { type: 'empty', style: { opacity: 0 } },
        { type: 'text', data: { html: MARKER } },
        { _id: text, type: 'text', style: { backgroundSize: 'contain' } },
        { type: 'video', data: { url: 'https://www.youtube.com/watch?v=x' } },
      ],
    };
    await expectFailsAndChangesNothing(target, body);
    await expectSucceedsWithoutMarker(target, body);
  }, 30_000);
});
