import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Api, createLayout, startTestApp } from './support/test-app';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
}

/** Compression (br, gzip) of JSON answers and of the explorer's files. */
describe('compression', () => {
  let app: NestFastifyApplication;
  let token: string;
  let project: string;
  let port: number;

  beforeAll(async () => {
    app = await startTestApp();
    const api = new Api(app);
    ({ token } = await api.newAccount('compress'));
    const layout = await createLayout(api, token);
    project = layout.project;
    // Enough text for an answer worth compressing.
    for (let i = 0; i < 5; i++) {
      await api.post(
        layout.contents,
        { type: 'text', data: { html: `<p>${'Lorem ipsum dolor sit amet. '.repeat(20)}</p>` } },
        { token },
      );
    }
    const address = app.getHttpServer().address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    port = address.port;
  });
  afterAll(() => app.close());

  /** A request whose answer is taken as it came over the wire, not decoded. */
  const get = (path: string, headers: Record<string, string>) =>
    new Promise<Raw>((resolve, reject) => {
      const req = request({ port, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            bytes: Buffer.concat(chunks),
          }),
        );
      });
      req.on('error', reject);
      req.end();
    });
  const auth = () => ({ authorization: `Bearer ${token}` });
  const varyOf = (raw: Raw) =>
    String(raw.headers.vary)
      .toLowerCase()
      .split(/\s*,\s*/);

  it.each([
    ['br', brotliDecompressSync],
    ['gzip', gunzipSync],
  ] as const)(
    'sends a whole project %s-encoded when accepted, equal to the plain answer',
    async (encoding, decode) => {
      const plain = await get(project, { ...auth(), 'accept-encoding': 'identity' });
      expect(plain.status).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      // The plain answer varies on the encoding too: a cache must not send it for a request
      // that accepts another, nor send another for one that does not.
      expect(varyOf(plain)).toEqual(['origin', 'accept-encoding']);
      expect(varyOf(await get(project, auth()))).toEqual(['origin', 'accept-encoding']);
      const packed = await get(project, { ...auth(), 'accept-encoding': `${encoding}` });
      expect(packed.status).toBe(200);
      expect(packed.headers['content-encoding']).toBe(encoding);
      expect(varyOf(packed)).toEqual(['origin', 'accept-encoding']);
      expect(packed.headers.etag).toBe(plain.headers.etag);
      expect(packed.bytes.length).toBeLessThan(plain.bytes.length / 3);
      expect(decode(packed.bytes).toString('utf8')).toBe(plain.bytes.toString('utf8'));
    },
  );

  it('never sends the compressed bytes of an older version of the document', async () => {
    const read = async () => {
      const packed = await get(project, { ...auth(), 'accept-encoding': 'br' });
      expect(packed.headers['content-encoding']).toBe('br');
      return {
        etag: packed.headers.etag,
        title: (
          JSON.parse(brotliDecompressSync(packed.bytes).toString('utf8')) as { title: string }
        ).title,
      };
    };
    const before = await read();
    // The same tag twice: the second may come from the kept bytes, and is the same document.
    expect(await read()).toEqual(before);
    const renamed = await new Api(app).put(project, { title: 'Renamed' }, { token });
    expect(renamed.status).toBe(200);
    const after = await read();
    expect(after.title).toBe('Renamed');
    expect(after.etag).not.toBe(before.etag);
    // And the plain answer agrees.
    const plain = await get(project, { ...auth(), 'accept-encoding': 'identity' });
    expect(plain.headers.etag).toBe(after.etag);
  });

  it('prefers brotli when both are accepted, and leaves small answers and 304s alone', async () => {
    const both = await get(project, { ...auth(), 'accept-encoding': 'gzip, br' });
    expect(both.headers['content-encoding']).toBe('br');
    const small = await get('/health/live', { 'accept-encoding': 'gzip, br' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.bytes.toString('utf8'))).toEqual({ status: 'ok' });
    const notModified = await get(project, {
      ...auth(),
      'accept-encoding': 'gzip, br',
      'if-none-match': String(both.headers.etag),
    });
    expect(notModified.status).toBe(304);
    expect(notModified.bytes.length).toBe(0);
  });

  it('compresses the OpenAPI document and the explorer', async () => {
    const document = await get('/docs/openapi.json', { 'accept-encoding': 'gzip' });
    expect(document.status).toBe(200);
    expect(document.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(document.bytes).toString('utf8'))).toMatchObject({
      openapi: expect.any(String),
    });
    const page = await get('/docs', { 'accept-encoding': 'gzip' });
    const script = /src="\.?\/?(?:docs\/)?([^"]*swagger-ui-bundle\.js)"/.exec(
      (page.headers['content-encoding'] === 'gzip' ? gunzipSync(page.bytes) : page.bytes).toString(
        'utf8',
      ),
    );
    expect(script).not.toBeNull();
    const bundle = await get(`/docs/${script?.[1] ?? ''}`, { 'accept-encoding': 'gzip' });
    expect(bundle.status).toBe(200);
    expect(bundle.headers['content-encoding']).toBe('gzip');
  });
});
