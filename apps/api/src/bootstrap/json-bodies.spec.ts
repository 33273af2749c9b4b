import Fastify, { type FastifyInstance } from 'fastify';
import { toProblem } from '../common/filters/problem';
import {
  BODY_LIMIT_BYTES,
  configureJsonBodies,
  declaresUtf8OrNothing,
  decodeUtf8,
} from './json-bodies';

// A bare Fastify with the service's body parsing and its problem mapping as error handler.

interface Answer {
  status: number;
  body: any;
}

async function post(
  app: FastifyInstance,
  payload: string | Buffer,
  contentType: string | undefined = 'application/json',
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (contentType !== undefined) headers['content-type'] = contentType;
  const answer = await app.inject({ method: 'POST', url: '/echo', headers, payload });
  return { status: answer.statusCode, body: JSON.parse(answer.body) };
}

const json = (text: string, ...prefix: number[]) =>
  Buffer.concat([Buffer.from(prefix), Buffer.from(text, 'utf8')]);
/** `{"title":"a<bytes>b"}` with the given raw bytes inside the string. */
const titleWith = (...bytes: number[]) =>
  Buffer.concat([Buffer.from('{"title":"a'), Buffer.from(bytes), Buffer.from('b"}')]);

describe('declaresUtf8OrNothing', () => {
  it.each([
    undefined,
    'application/json',
    'application/json; charset=utf-8',
    'application/json;charset=UTF-8',
    'application/json; charset="utf-8"',
    'application/json; Charset="UTF-8"',
    'application/json; charset=utf8',
    'application/json; charset = utf-8 ',
    'application/json; charset=utf-8; foo=bar',
    'application/json; foo=bar',
    'application/json; foo="a;b"',
  ])('accepts %j', (contentType) => expect(declaresUtf8OrNothing(contentType)).toBe(true));

  it.each([
    'application/json; charset=latin1',
    'application/json; charset=iso-8859-1',
    'application/json;charset=utf-16',
    'application/json; charset=UTF-16LE',
    'application/json; charset=us-ascii',
    'application/json; charset=windows-1252',
    'application/json; charset=utf-32',
    'application/json; charset=',
    'application/json; charset=""',
    'application/json; charset="utf-8',
    'application/json; charset=utf-8x',
    'application/json; charset=utf-8 latin1',
    'application/json; charset=utf-8; charset=latin1',
    'application/json; foo=bar; CHARSET=latin1',
  ])('refuses %j', (contentType) => expect(declaresUtf8OrNothing(contentType)).toBe(false));
});

describe('decodeUtf8', () => {
  it('decodes UTF-8, drops one leading byte order mark and keeps a literal U+FFFD', () => {
    expect(decodeUtf8(Buffer.from('h\u00e9 \ud83d\ude00 \ufffd'))).toBe(
      'h\u00e9 \ud83d\ude00 \ufffd',
    );
    expect(decodeUtf8(json('{}', 0xef, 0xbb, 0xbf))).toBe('{}');
    expect(decodeUtf8(json('{}', 0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf))).toBe('\ufeff{}');
  });

  it.each([
    ['a lone continuation byte', [0x80]],
    ['bytes that never occur', [0xff, 0xfe]],
    ['an overlong NUL', [0xc0, 0x80]],
    ['an overlong slash', [0xe0, 0x80, 0xaf]],
    ['an encoded high surrogate (CESU-8)', [0xed, 0xa0, 0x80]],
    ['an encoded low surrogate', [0xed, 0xbf, 0xbf]],
    ['a code point past U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ['a five-byte form', [0xf8, 0x88, 0x80, 0x80, 0x80]],
    ['a truncated sequence', [0xe2, 0x82]],
  ])('refuses %s', (_name, bytes) => expect(decodeUtf8(titleWith(...bytes))).toBeUndefined());
});

describe('configureJsonBodies', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = Fastify({ bodyLimit: BODY_LIMIT_BYTES });
    configureJsonBodies(app);
    app.setErrorHandler((error, request, reply) => {
      const problem = toProblem(error, request.url);
      void reply.status(problem.status).type('application/problem+json').send(problem.body);
    });
    app.post('/echo', (request) => ({ parsed: request.body ?? null }));
    await app.ready();
  });

  afterAll(() => app.close());

  it('parses UTF-8 JSON, with or without a UTF-8 charset, and keeps every character', async () => {
    const text = '{"title":"h\u00e9 \ud83d\ude00 \ufffd \u2028"}';
    for (const type of [
      'application/json',
      'application/json; charset=utf-8',
      'application/json; charset="UTF-8"',
      'application/json;charset=utf8',
    ]) {
      expect(await post(app, text, type)).toEqual({
        status: 200,
        body: { parsed: JSON.parse(text) },
      });
    }
  });

  it('drops a leading byte order mark', async () => {
    const answer = await post(app, json('{"title":"x"}', 0xef, 0xbb, 0xbf));
    expect(answer).toEqual({ status: 200, body: { parsed: { title: 'x' } } });
  });

  it.each(['', '   ', '\r\n\t ', '\ufeff'])('counts %j as no body', async (payload) => {
    expect(await post(app, payload)).toEqual({ status: 200, body: { parsed: null } });
  });

  it.each([
    'application/json; charset=latin1',
    'application/json; charset=iso-8859-1',
    'application/json;charset=utf-16',
    'application/json; charset=us-ascii',
    'application/json; charset=utf-8; charset=latin1',
    'text/plain',
    'application/x-www-form-urlencoded',
  ])('answers a body declared as %j with 415', async (type) => {
    // ASCII text, the same bytes in each of these charsets: the declaration alone decides.
    const answer = await post(app, '{"title":"x"}', type);
    expect(answer.status).toBe(415);
    expect(answer.body).toMatchObject({ type: '/problems/unsupported-media-type', status: 415 });
  });

  it('answers latin1 and UTF-16 bytes declared as such with 415, not with U+FFFD', async () => {
    const latin1 = await post(
      app,
      Buffer.from('{"title":"caf\u00e9"}', 'latin1'),
      'application/json; charset=latin1',
    );
    const utf16 = await post(
      app,
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"title":"x"}', 'utf16le')]),
      'application/json; charset=utf-16',
    );
    expect([latin1.status, utf16.status]).toEqual([415, 415]);
  });

  it.each([
    ['latin1 bytes sent as UTF-8', Buffer.from('{"title":"caf\u00e9"}', 'latin1')],
    ['a lone continuation byte', titleWith(0x80)],
    ['an overlong NUL', titleWith(0xc0, 0x80)],
    ['an overlong slash', titleWith(0xe0, 0x80, 0xaf)],
    ['an encoded surrogate', titleWith(0xed, 0xa0, 0x80)],
    ['a code point past U+10FFFF', titleWith(0xf4, 0x90, 0x80, 0x80)],
    ['a truncated sequence', titleWith(0xe2, 0x82)],
    ['UTF-16 with a byte order mark', Buffer.from('\ufeff{}', 'utf16le')],
  ])('answers %s with 400 malformed-json', async (_name, payload) => {
    const answer = await post(app, payload);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ type: '/problems/malformed-json', status: 400 });
  });

  it('refuses invalid UTF-8 even when the rest of the body would parse', async () => {
    const answer = await post(app, titleWith(0xed, 0xa0, 0x80), 'application/json; charset=utf-8');
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ type: '/problems/malformed-json' });
  });

  it('still answers malformed JSON with 400, and large bodies with 413', async () => {
    const cases = await Promise.all([
      post(app, '{"title":'),
      post(app, '{"title":"x"}{"title":"y"}'),
      post(app, '{"__proto__":{"admin":true},'),
      post(app, `{"title":"${'a'.repeat(BODY_LIMIT_BYTES)}"}`),
    ]);
    expect(cases.map((answer) => [answer.status, answer.body.type])).toEqual([
      [400, '/problems/malformed-json'],
      [400, '/problems/malformed-json'],
      [400, '/problems/malformed-json'],
      [413, '/problems/payload-too-large'],
    ]);
  });

  it('answers __proto__ and constructor.prototype keys, which the parser refuses, as unknown members', async () => {
    const cases = await Promise.all([
      post(app, '{"__proto__":{"admin":true}}'),
      post(app, '{"title":"x","style":{"__proto__":{}}}'),
      post(app, '{"constructor":{"prototype":{"admin":true}}}'),
    ]);
    expect(cases.map((answer) => [answer.status, answer.body.type, answer.body.errors])).toEqual([
      [400, '/problems/validation', [{ pointer: '/__proto__', detail: 'is not a known member' }]],
      [
        400,
        '/problems/validation',
        [{ pointer: '/style/__proto__', detail: 'is not a known member' }],
      ],
      [400, '/problems/validation', [{ pointer: '/constructor', detail: 'is not a known member' }]],
    ]);
    // Nothing was polluted on the way.
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });
});
