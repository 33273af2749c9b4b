import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Pool, type PoolClient } from 'pg';
import { AssetSweep } from '../../apps/api/src/assets/asset-sweep';
import { Api, createLayout, type Response, startTestApp } from '../support/test-app';
import { CONTENT_TYPES, image, type ImageFormat } from './images';

const MiB = 1024 * 1024;

let folder: string;
let app: NestFastifyApplication;
let api: Api;
let token: string;
let db: Pool;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'assets-e2e-'));
  app = await startTestApp({ ASSET_DIR: folder });
  api = new Api(app);
  ({ token } = await api.newAccount('assets'));
  db = new Pool({ connectionString: process.env.LAYOUT_TEST_DATABASE_URL, max: 2 });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await db?.end();
  rmSync(folder, { recursive: true, force: true });
});

function upload(bytes: Buffer, type: string, as = token) {
  return api.request('POST', '/assets', {
    token: as,
    raw: bytes,
    headers: { 'content-type': type },
  });
}

/** Files in the store and in its spool, whatever their folder. */
function storedFiles(root = folder): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

function spooled(root = folder): string[] {
  return storedFiles(root).filter((file) => file.includes('.incoming'));
}

async function rowsOf(accountToken: string): Promise<number> {
  const listed = await api.get('/assets', { token: accountToken });
  expect(listed.status).toBe(200);
  return listed.body.length;
}

describe('POST /assets', () => {
  it.each<[ImageFormat, number, number]>([
    ['png', 64, 48],
    ['jpeg', 30, 20],
    ['gif', 17, 9],
    ['webp', 40, 41],
    ['avif', 33, 22],
  ])('keeps a %s image, its type and pixel size read from its bytes', async (format, w, h) => {
    const bytes = await image(format, w, h, w);
    const created = await upload(bytes, CONTENT_TYPES[format]);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      contentType: CONTENT_TYPES[format],
      size: bytes.length,
      width: w,
      height: h,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
    expect(created.body.url).toBe(`/assets/${created.body._id}`);
    expect(created.headers.location).toBe(created.body.url);
    const read = await fetch(`${api.baseUrl}${created.body.url}`);
    expect(read.status).toBe(200);
    expect(read.headers.get('content-type')).toBe(CONTENT_TYPES[format]);
    expect(Buffer.from(await read.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('keeps the same bytes once per account: 200 with the asset they are', async () => {
    const bytes = await image('png', 20, 20, 77);
    const first = await upload(bytes, 'image/png');
    const again = await upload(bytes, 'image/png');
    expect([first.status, again.status]).toEqual([201, 200]);
    expect(again.body).toEqual(first.body);
    // At once, too: one asset, one file.
    const twin = await image('png', 21, 20, 78);
    const racing = await Promise.all([1, 2, 3, 4].map(() => upload(twin, 'image/png')));
    expect(racing.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 201]);
    expect(new Set(racing.map((answer) => answer.body._id)).size).toBe(1);
    const files = storedFiles().filter((file) => file.endsWith(racing[0].body._id as string));
    expect(files).toHaveLength(1);
    // Another account keeps its own.
    const other = await api.newAccount('assets-twin');
    const theirs = await upload(bytes, 'image/png', other.token);
    expect(theirs.status).toBe(201);
    expect(theirs.body._id).not.toBe(first.body._id);
  });

  it('refuses, with 415 and nothing kept, what is not a whole image of the declared type', async () => {
    const before = storedFiles().length;
    const png = await image('png');
    const cases: [string, Buffer, string][] = [
      ['a PNG declared as JPEG', png, 'image/jpeg'],
      ['SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml'],
      [
        'SVG declared as PNG',
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
        'image/png',
      ],
      ['text', Buffer.from('hello'), 'text/plain'],
      ['an empty body', Buffer.alloc(0), 'image/png'],
      ['a PNG without its last bytes', png.subarray(0, png.length - 2), 'image/png'],
    ];
    for (const format of ['png', 'jpeg', 'gif', 'webp', 'avif'] as const) {
      const whole = await image(format, 50, 40, 3);
      cases.push([
        `a truncated ${format}`,
        whole.subarray(0, Math.floor(whole.length * 0.6)),
        CONTENT_TYPES[format],
      ]);
    }
    for (const [what, bytes, type] of cases) {
      const refused = await upload(bytes, type);
      expect([what, refused.status, refused.body?.type]).toEqual([
        what,
        415,
        '/problems/unsupported-media-type',
      ]);
    }
    const json = await api.post('/assets', { url: 'x' }, { token });
    expect(json.status).toBe(415);
    expect(storedFiles()).toHaveLength(before);
  });

  it('refuses more than 10 MiB with 413, keeping neither bytes nor a row', async () => {
    const { token: mine } = await api.newAccount('assets-big');
    const big = Buffer.alloc(10 * MiB + 1, 7);
    const declared = await upload(big, 'image/png', mine);
    expect(declared.status).toBe(413);
    expect(declared.body).toMatchObject({ type: '/problems/payload-too-large', limit: 10 * MiB });
    // Without a length, the limit is found as the bytes arrive.
    const streamed = await new Promise<number>((resolve, reject) => {
      const sent = httpRequest(
        `${api.baseUrl}/assets`,
        {
          method: 'POST',
          agent: false,
          headers: {
            authorization: `Bearer ${mine}`,
            'content-type': 'image/png',
            'transfer-encoding': 'chunked',
          },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      sent.on('error', reject);
      for (let i = 0; i < 11; i += 1) sent.write(Buffer.alloc(MiB, i));
      sent.end();
    });
    expect(streamed).toBe(413);
    expect(spooled()).toEqual([]);
    expect(await rowsOf(mine)).toBe(0);
  });

  it('keeps neither bytes nor a row when the client goes away half-way', async () => {
    const { token: mine } = await api.newAccount('assets-gone');
    const bytes = await image('png', 400, 400, 9);
    await new Promise<void>((resolve) => {
      const sent = httpRequest(`${api.baseUrl}/assets`, {
        method: 'POST',
        agent: false,
        headers: {
          authorization: `Bearer ${mine}`,
          'content-type': 'image/png',
          'content-length': String(bytes.length),
        },
      });
      sent.on('error', () => resolve());
      sent.write(bytes.subarray(0, bytes.length >> 1), () => {
        // Half of it is on its way: once the service spooled some of it, hang up.
        const waitForSpool = () => {
          if (spooled().length > 0) sent.destroy();
          else setTimeout(waitForSpool, 10);
        };
        waitForSpool();
      });
    });
    // The service notices the hang-up and removes the spool.
    const deadline = Date.now() + 20_000;
    while (spooled().length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(spooled()).toEqual([]);
    expect(await rowsOf(mine)).toBe(0);
  });

  it('holds an account to its limit under concurrent uploads, keeping only what fits', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'assets-quota-'));
    const images = await Promise.all(
      Array.from({ length: 8 }, (_, i) => image('png', 60, 60, 100 + i, true)),
    );
    const size = images[0].length;
    expect(new Set(images.map((bytes) => bytes.length))).toEqual(new Set([size]));
    // Room for three of them, whichever three.
    const limited = await startTestApp({
      ASSET_DIR: dir,
      ASSET_ACCOUNT_BYTES: String(size * 3 + size - 1),
    });
    try {
      const client = new Api(limited);
      const { token: mine } = await client.newAccount('assets-quota');
      const answers = await Promise.all(
        images.map((bytes) =>
          client.request('POST', '/assets', {
            token: mine,
            raw: bytes,
            headers: { 'content-type': 'image/png' },
          }),
        ),
      );
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 201)).toHaveLength(3);
      expect(statuses.filter((status) => status === 409)).toHaveLength(5);
      expect(answers.find((answer) => answer.status === 409)!.body.type).toBe(
        '/problems/limit-exceeded',
      );
      expect(storedFiles(dir)).toHaveLength(3);
      const listed = await client.get('/assets', { token: mine });
      expect(listed.body).toHaveLength(3);
      // Deleting one makes room again.
      expect((await client.delete(`/assets/${listed.body[0]._id}`, { token: mine })).status).toBe(
        204,
      );
      const refused = answers.find((answer) => answer.status === 409)!;
      const retried = images[answers.indexOf(refused)];
      const after = await client.request('POST', '/assets', {
        token: mine,
        raw: retried,
        headers: { 'content-type': 'image/png' },
      });
      expect(after.status).toBe(201);
    } finally {
      await limited.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('GET /assets/<id>', () => {
  it('serves the bytes as a static file server: ETag, immutable caching, Range, HEAD, 304', async () => {
    const bytes = await image('png', 100, 100, 5);
    const { body: asset } = await upload(bytes, 'image/png');
    const url = `${api.baseUrl}${asset.url}`;
    const whole = await fetch(url);
    expect(whole.headers.get('etag')).toBe(`"${asset.sha256}"`);
    expect(whole.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('content-length')).toBe(String(bytes.length));
    expect(whole.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);
    // Kept in memory now: the same bytes, never compressed again, however asked.
    const again = await fetch(url, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(again.headers.get('content-encoding')).toBeNull();
    expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true);

    const part = await api.get(asset.url, { headers: { range: 'bytes=10-29' } });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 10-29/${bytes.length}`);
    const partBytes = Buffer.from(
      await (await fetch(url, { headers: { range: 'bytes=10-29' } })).arrayBuffer(),
    );
    expect(partBytes.equals(bytes.subarray(10, 30))).toBe(true);
    const suffix = Buffer.from(
      await (await fetch(url, { headers: { range: 'bytes=-5' } })).arrayBuffer(),
    );
    expect(suffix.equals(bytes.subarray(-5))).toBe(true);
    const stale = await fetch(url, { headers: { range: 'bytes=0-0', 'if-range': '"other"' } });
    expect(stale.status).toBe(200);
    await stale.arrayBuffer();
    const past = await api.get(asset.url, { headers: { range: `bytes=${bytes.length}-` } });
    expect(past.status).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${bytes.length}`);

    const head = await api.request('HEAD', asset.url);
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(bytes.length));
    const kept = await api.get(asset.url, { headers: { 'if-none-match': `"${asset.sha256}"` } });
    expect(kept.status).toBe(304);

    expect((await api.get('/assets/5f0c6a1e-2b7d-4c3e-9a8f-1d2e3f4a5b6c')).status).toBe(404);
    expect((await api.get('/assets/nope')).status).toBe(404);
  });
});

describe('assets named by contents and styles', () => {
  it('counts an account’s asset calls against its budget, and not the bytes a page loads', async () => {
    const created = await upload(await image('png', 8, 8, 8), 'image/png');
    expect(created.status).toBe(201);
    expect(created.headers['ratelimit-policy']).toBe('"account";q=1000000;w=60');
    const listed = await api.get('/assets', { token });
    expect(listed.headers['ratelimit-policy']).toBe('"account";q=1000000;w=60');
    const read = await fetch(`${api.baseUrl}${created.body.url}`);
    expect(read.status).toBe(200);
    expect(read.headers.get('ratelimit-policy')).toBeNull();
    expect(read.headers.get('ratelimit')).toBeNull();
  });

  it('lets a writer name its own assets, refuses others', async () => {
    const { body: mine } = await upload(await image('png', 12, 12, 11), 'image/png');
    const other = await api.newAccount('assets-other');
    const { body: theirs } = await upload(await image('png', 13, 12, 12), 'image/png', other.token);
    const paths = await createLayout(api, token);

    const named = await api.post(
      paths.contents,
      { type: 'image', data: { url: mine.url, alt: 'Mine' }, style: { backgroundImage: mine.url } },
      { token },
    );
    expect(named.status).toBe(201);
    expect(named.body.data.url).toBe(mine.url);
    const block = await api.put(paths.block, { style: { backgroundImage: mine.url } }, { token });
    expect(block.status).toBe(200);

    const refused = await api.post(
      paths.contents,
      { type: 'image', data: { url: theirs.url } },
      { token },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      { pointer: '/data/url', detail: expect.stringMatching(/asset/) },
    ]);
    const inColumn = await api.put(
      paths.column,
      { contents: [{ type: 'empty', style: { backgroundImage: theirs.url } }] },
      { token },
    );
    expect(inColumn.status).toBe(400);
    expect(inColumn.body.errors[0].pointer).toBe('/contents/0/style/backgroundImage');
    const unknown = await api.put(
      paths.block,
      { style: { backgroundImage: '/assets/5f0c6a1e-2b7d-4c3e-9a8f-1d2e3f4a5b6c' } },
      { token },
    );
    expect(unknown.status).toBe(400);

    // The render shows it.
    const page = await api.get(`${paths.project}/render`, { token });
    expect(page.text).toContain(`src="${mine.url}"`);
    expect(page.text).toContain(`background-image:url("${mine.url}")`);
  });

  it('checks the assets a batch and a whole tree name, as each write alone', async () => {
    const { body: mine } = await upload(await image('png', 14, 12, 13), 'image/png');
    const other = await api.newAccount('assets-batch');
    const { body: theirs } = await upload(await image('png', 15, 12, 14), 'image/png', other.token);
    const paths = await createLayout(api, token);
    const imageContent = (url: string) => ({ type: 'image', data: { url } });

    const batch = await api.post(
      `${paths.project}/batch`,
      {
        operations: [
          { method: 'POST', path: paths.contents, body: imageContent(mine.url) },
          { method: 'POST', path: paths.contents, body: imageContent(theirs.url) },
        ],
      },
      { token },
    );
    expect([batch.status, batch.body.operationIndex, batch.body.errors]).toEqual([
      400,
      1,
      [{ pointer: '/data/url', detail: expect.stringMatching(/asset/) }],
    ]);
    expect((await api.get(paths.contents, { token })).body).toEqual([]);

    const tree = (url: string) => ({
      title: 'With images',
      blocks: [
        { description: '', rows: [{ columns: [{ size: 12, contents: [imageContent(url)] }] }] },
      ],
    });
    const refused = await api.post('/projects', tree(theirs.url), { token });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].pointer).toBe('/blocks/0/rows/0/columns/0/contents/0/data/url');
    const made = await api.post('/projects', tree(mine.url), { token });
    expect(made.status).toBe(201);
  });

  it('refuses to delete an asset while anything names it, and says where', async () => {
    const { body: asset } = await upload(await image('png', 14, 12, 21), 'image/png');
    const paths = await createLayout(api, token);
    const content = await api.post(
      paths.contents,
      { type: 'image', data: { url: asset.url } },
      { token },
    );
    await api.put(paths.block, { style: { backgroundImage: asset.url } }, { token });
    const refused = await api.delete(`/assets/${asset._id}`, { token });
    expect(refused.status).toBe(409);
    expect(refused.body.type).toBe('/problems/asset-in-use');
    expect(refused.body.paths.sort()).toEqual(
      [paths.block, `${paths.contents}/${content.body._id}`].sort(),
    );
    expect((await fetch(`${api.baseUrl}${asset.url}`)).status).toBe(200);

    await api.delete(paths.project, { token });
    const stranger = await api.newAccount('assets-stranger');
    expect((await api.delete(`/assets/${asset._id}`, { token: stranger.token })).status).toBe(404);
    expect((await api.delete(`/assets/${asset._id}`, { token })).status).toBe(204);
    expect((await api.get(asset.url)).status).toBe(404);
    expect(storedFiles().filter((file) => file.endsWith(asset._id as string))).toEqual([]);
  });

  /** Resolves once a backend waits for a lock that the session `holder` holds. */
  async function blockedBy(holder: PoolClient): Promise<void> {
    const { rows } = await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const pid = rows[0].pid;
    for (;;) {
      const waiting = await db.query(
        'SELECT 1 FROM pg_stat_activity WHERE $1::int = ANY (pg_blocking_pids(pid))',
        [pid],
      );
      if (waiting.rowCount) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it('refuses a write naming an asset deleted while the write waited for its project', async () => {
    const { body: asset } = await upload(await image('png', 17, 12, 41), 'image/png');
    const paths = await createLayout(api, token);
    const holder = await db.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM projects WHERE id = $1 FOR UPDATE', [
        paths.project.split('/')[2],
      ]);
      // Checked nameable as it came, then queued behind the project's lock.
      const writing = api.post(
        paths.contents,
        { type: 'image', data: { url: asset.url } },
        { token },
      );
      await blockedBy(holder);
      expect((await api.delete(`/assets/${asset._id}`, { token })).status).toBe(204);
      await holder.query('ROLLBACK');
      const written = await writing;
      expect(written.status).toBe(400);
      expect(written.body.errors).toEqual([
        { pointer: '/data/url', detail: expect.stringContaining('names an asset') },
      ]);
    } finally {
      holder.release();
    }
    expect((await api.get(paths.contents, { token })).body).toEqual([]);
  });

  it('deletes an asset only once the write that names it has committed, then refuses', async () => {
    const { body: asset } = await upload(await image('png', 18, 12, 42), 'image/png');
    const paths = await createLayout(api, token);
    const content = await api.post(paths.contents, { type: 'image' }, { token });
    const holder = await db.connect();
    let deleting: Promise<Response> | undefined;
    try {
      // A write in flight, as AssetNames.held leaves it: the asset held, a content naming it.
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM assets WHERE id = $1 FOR KEY SHARE', [asset._id]);
      await holder.query(
        `UPDATE contents SET data = json_build_object('url', $1::text) WHERE id = $2`,
        [asset.url, content.body._id],
      );
      deleting = api.delete(`/assets/${asset._id}`, { token });
      await blockedBy(holder);
      await holder.query('COMMIT');
    } finally {
      holder.release();
    }
    const refused = await deleting;
    expect(refused.status).toBe(409);
    expect(refused.body.paths).toEqual([`${paths.contents}/${content.body._id}`]);
    expect((await fetch(`${api.baseUrl}${asset.url}`)).status).toBe(200);
  });

  it('keeps, when its account is deleted, the assets that projects still name, and only those', async () => {
    const owner = await api.newAccount('assets-leaving');
    const { body: named } = await upload(await image('png', 15, 12, 31), 'image/png', owner.token);
    const { body: unnamed } = await upload(
      await image('png', 16, 12, 32),
      'image/png',
      owner.token,
    );
    // A project of another account names it (as a team member's will, once projects are shared).
    const keeper = await api.newAccount('assets-keeper');
    const paths = await createLayout(api, keeper.token);
    const content = await api.post(paths.contents, { type: 'image' }, { token: keeper.token });
    await db.query(`UPDATE contents SET data = json_build_object('url', $1::text) WHERE id = $2`, [
      named.url,
      content.body._id,
    ]);

    expect((await api.delete('/accounts/auth/me', { token: owner.token })).status).toBe(204);
    const deadline = Date.now() + 20_000;
    while (
      (await db.query('SELECT 1 FROM accounts WHERE id = $1', [owner.id])).rowCount &&
      Date.now() < deadline
    ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await app.get(AssetSweep).sweep();
    expect((await api.get(unnamed.url)).status).toBe(404);
    expect((await api.get(named.url)).status).toBe(200);
    expect(storedFiles().some((file) => file.endsWith(unnamed._id as string))).toBe(false);

    // Once nothing names it, it goes too.
    await api.delete(paths.project, { token: keeper.token });
    await app.get(AssetSweep).sweep();
    expect((await api.get(named.url)).status).toBe(404);
  });
});

describe('GET /assets', () => {
  it('lists the caller’s assets newest first, a page at a time with Link', async () => {
    const { token: mine } = await api.newAccount('assets-list');
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      ids.push((await upload(await image('png', 10, 10, 200 + i), 'image/png', mine)).body._id);
    }
    const all = await api.get('/assets', { token: mine });
    expect(all.body.map((asset: { _id: string }) => asset._id)).toEqual([...ids].reverse());
    const first = await api.get('/assets?limit=2', { token: mine });
    expect(first.body).toHaveLength(2);
    expect(first.headers.link).toBe(`</assets?limit=2&after=${ids[1]}>; rel="next"`);
    const second = await api.get(`/assets?limit=2&after=${ids[1]}`, { token: mine });
    expect(second.body.map((asset: { _id: string }) => asset._id)).toEqual([ids[0]]);
    expect(second.headers.link).toBeUndefined();
    expect((await api.get('/assets?limit=0', { token: mine })).status).toBe(400);
    expect((await api.get('/assets')).status).toBe(401);
  });
});
