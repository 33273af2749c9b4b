import { type OutgoingHttpHeaders } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import { Representation } from '../common/http/representation';
import { SerializedJson } from '../common/json/serialized-json';
import { configureJsonReplies } from './json-replies';

interface Answer {
  status: number;
  headers: OutgoingHttpHeaders;
  body: string;
}

async function call(
  app: FastifyInstance,
  method: 'GET' | 'HEAD' | 'POST' | 'DELETE',
  url: string,
): Promise<Answer> {
  const answer = await app.inject({ method, url });
  return { status: answer.statusCode, headers: answer.headers, body: answer.body };
}

/** JSON text as PostgreSQL builds it: spacing and key order that JSON.stringify would change. */
const DOCUMENT = '{"_id": "c9",  "size": "6", "contents": []}';
/** A document beyond ASCII, whose length in bytes is not its length in characters. */
const UNICODE_DOCUMENT = '{"title": "Café – ✓ 😀"}';

describe('configureJsonReplies', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = Fastify();
    configureJsonReplies(app);
    app.post('/created', (_request, reply) => {
      void reply.code(201);
      return Promise.resolve(
        Representation.of(new SerializedJson(DOCUMENT), {
          etag: '"r8"',
          projectRevision: 8,
          location: '/projects/p1/blocks/b1/rows/r1/columns/c9',
        }),
      );
    });
    app.get('/document', () =>
      Promise.resolve(Representation.of(new SerializedJson(DOCUMENT), { etag: '"r5"' })),
    );
    app.get('/unchanged', () => Promise.resolve(Representation.notModified('"r5"')));
    app.delete('/deleted', (_request, reply) => {
      void reply.code(204);
      return Promise.resolve(Representation.empty({ projectRevision: 9 }));
    });
    app.get('/serialized', () => Promise.resolve(new SerializedJson(DOCUMENT)));
    app.get('/bytes', () =>
      Promise.resolve(
        Representation.of(new SerializedJson(Buffer.from(UNICODE_DOCUMENT)), { etag: '"r6"' }),
      ),
    );
    app.get('/object', () => Promise.resolve({ status: 'ok', list: [1, 2] }));
    await app.ready();
  });

  afterAll(() => app.close());

  it('sends a created representation’s document as is, with ETag, Project-Revision and Location', async () => {
    const answer = await call(app, 'POST', '/created');
    expect(answer.status).toBe(201);
    expect(answer.body).toBe(DOCUMENT);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.headers.etag).toBe('"r8"');
    expect(answer.headers['project-revision']).toBe('8');
    expect(answer.headers.location).toBe('/projects/p1/blocks/b1/rows/r1/columns/c9');
  });

  it('sets only the headers a representation carries', async () => {
    const answer = await call(app, 'GET', '/document');
    expect(answer.status).toBe(200);
    expect(answer.body).toBe(DOCUMENT);
    expect(answer.headers.etag).toBe('"r5"');
    expect(answer.headers).not.toHaveProperty('project-revision');
    expect(answer.headers).not.toHaveProperty('location');
  });

  it('turns "not modified" into a 304 with the ETag, no body and no Content-Type', async () => {
    const answer = await call(app, 'GET', '/unchanged');
    expect(answer.status).toBe(304);
    expect(answer.headers.etag).toBe('"r5"');
    expect(answer.body).toBe('');
    expect(answer.headers).not.toHaveProperty('content-type');
  });

  it('answers an empty representation with no body and its Project-Revision', async () => {
    const answer = await call(app, 'DELETE', '/deleted');
    expect(answer.status).toBe(204);
    expect(answer.body).toBe('');
    expect(answer.headers['project-revision']).toBe('9');
    expect(answer.headers).not.toHaveProperty('etag');
  });

  it('answers HEAD with the same headers as GET and no body', async () => {
    const answer = await call(app, 'HEAD', '/document');
    expect(answer.status).toBe(200);
    expect(answer.headers.etag).toBe('"r5"');
    expect(answer.body).toBe('');
  });

  it('sends a bare SerializedJson as is', async () => {
    const answer = await call(app, 'GET', '/serialized');
    expect(answer.body).toBe(DOCUMENT);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
  });

  it('sends a document held as UTF-8 bytes as they are, with their length', async () => {
    const answer = await call(app, 'GET', '/bytes');
    expect(answer.status).toBe(200);
    expect(answer.body).toBe(UNICODE_DOCUMENT);
    expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(UNICODE_DOCUMENT)));
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.headers.etag).toBe('"r6"');
  });

  it('stringifies any other object', async () => {
    const answer = await call(app, 'GET', '/object');
    expect(answer.body).toBe('{"status":"ok","list":[1,2]}');
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
  });
});
