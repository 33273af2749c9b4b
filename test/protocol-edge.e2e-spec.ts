import { connect } from 'node:net';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import {
  PROBLEM_STATUSES,
  PROBLEM_TITLES,
  PROBLEM_TYPES,
  type ProblemType,
} from '@layout/contracts';
import { startTestApp } from './support/test-app';

/**
 * The edge of the HTTP server, over raw sockets: what Node's parser or server would answer
 * itself, or not at all, before any route runs. Every such answer is problem+json (CONTRACT.md,
 * "Isolation and time limits"), or the connection closes only where HTTP allows no answer.
 */

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

interface Exchange {
  responses: RawResponse[];
  /** Whether the server closed the connection (rather than this client). */
  closedByServer: boolean;
}

/** Waiting for the server to close: generous, since a busy machine may be slow to do so. */
const CLOSE_DEADLINE_MS = 20_000;

/** The complete responses at the start of `data`: 1xx ones without a body, others by length. */
function parseResponses(data: Buffer): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = data;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) return responses;
    const [statusLine, ...lines] = rest.subarray(0, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1]);
    if (!Number.isInteger(status)) throw new Error(`not a status line: ${statusLine}`);
    const headers = Object.fromEntries(
      lines.map((line) => {
        const colon = line.indexOf(':');
        return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
      }),
    );
    const length = status < 200 ? 0 : Number(headers['content-length']);
    if (!Number.isInteger(length)) throw new Error(`no Content-Length in ${statusLine}`);
    if (rest.length < end + 4 + length) return responses;
    responses.push({
      status,
      headers,
      body: rest.subarray(end + 4, end + 4 + length).toString('utf8'),
    });
    rest = rest.subarray(end + 4 + length);
  }
}

/**
 * Sends `raw` on a new connection and collects what comes back until the server closes the
 * connection, or, with `keepOpen`, until a final response has arrived (then this side closes).
 */
function exchange(port: number, raw: string | Buffer, keepOpen = false): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let closedByClient = false;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new Error(
          `the server kept the connection open ${CLOSE_DEADLINE_MS} ms after:\n${raw.toString()}`,
        ),
      );
    }, CLOSE_DEADLINE_MS);
    const received = () => Buffer.concat(chunks);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (!keepOpen || closedByClient) return;
      try {
        if (parseResponses(received()).some((response) => response.status >= 200)) {
          closedByClient = true;
          socket.end();
        }
      } catch {
        // Reported once the connection has closed.
      }
    });
    // A reset after the answer (the server closing while bytes of the request are unread) is
    // still a close by the server.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      try {
        resolve({ responses: parseResponses(received()), closedByServer: !closedByClient });
      } catch (error) {
        reject(new Error(`${String(error)}; received:\n${received().toString('latin1')}`));
      }
    });
    socket.write(raw);
  });
}

describe('answers of the HTTP server itself', () => {
  let app: NestFastifyApplication;
  let port: number;
  let isProblem: ValidateFunction;

  beforeAll(async () => {
    app = await startTestApp();
    const address = app.getHttpServer().address();
    if (!address || typeof address === 'string') throw new Error('the app is not listening');
    port = address.port;
    const document = (await (await fetch(`http://127.0.0.1:${port}/docs/openapi.json`)).json()) as {
      components: object;
    };
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ components: document.components }, 'openapi.json');
    isProblem = ajv.compile({ $ref: 'openapi.json#/components/schemas/ProblemDetailsResponse' });
  });
  afterAll(() => app.close());

  /** The one final answer is the problem of `type`, as problem+json, and the server hung up. */
  function expectOneProblem({ responses, closedByServer }: Exchange, type: ProblemType) {
    const finals = responses.filter((response) => response.status >= 200);
    expect(finals.map((response) => response.status)).toEqual([PROBLEM_STATUSES[type]]);
    const [answer] = finals;
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json(;|$)/);
    // Every answer names itself, those written on the socket before any route included.
    expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const body = JSON.parse(answer.body) as unknown;
    expect(isProblem(body) ? [] : isProblem.errors).toEqual([]);
    expect(body).toMatchObject({
      type,
      title: PROBLEM_TITLES[type],
      status: PROBLEM_STATUSES[type],
    });
    expect(closedByServer).toBe(true);
  }

  const get = (lines: string[]) =>
    `GET /health/live HTTP/1.1\r\n${lines.map((l) => `${l}\r\n`).join('')}\r\n`;
  const post = (lines: string[], body = '') =>
    `POST /accounts HTTP/1.1\r\nHost: localhost\r\n${lines.map((l) => `${l}\r\n`).join('')}\r\n${body}`;

  it.each<[string, string | Buffer, ProblemType]>([
    ['an HTTP/1.1 request without Host', get([]), PROBLEM_TYPES.malformedRequest],
    ['two Host lines', get(['Host: a.example', 'Host: b.example']), PROBLEM_TYPES.malformedRequest],
    ['a Host that is no host', get(['Host: a b']), PROBLEM_TYPES.malformedRequest],
    [
      'an Expect other than 100-continue',
      get(['Host: localhost', 'Expect: teapot']),
      PROBLEM_TYPES.expectationFailed,
    ],
    [
      'an Expect other than 100-continue, with a body',
      post(['Expect: the-moon', 'Content-Type: application/json', 'Content-Length: 2'], '{}'),
      PROBLEM_TYPES.expectationFailed,
    ],
    [
      'CONNECT to a host and port',
      'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
      PROBLEM_TYPES.methodNotImplemented,
    ],
    [
      'CONNECT with a path',
      'CONNECT /projects HTTP/1.1\r\nHost: localhost\r\n\r\n',
      PROBLEM_TYPES.methodNotImplemented,
    ],
    [
      'a method HTTP does not know',
      'BREW /pot HTTP/1.1\r\nHost: localhost\r\n\r\n',
      PROBLEM_TYPES.malformedRequest,
    ],
    [
      'a header name with a space',
      get(['Host: localhost', 'Bad Header: y']),
      PROBLEM_TYPES.malformedRequest,
    ],
    [
      'a header folded over two lines',
      get(['Host: localhost', 'X-A: a', ' b']),
      PROBLEM_TYPES.malformedRequest,
    ],
    [
      'headers over 16 KiB',
      get(['Host: localhost', `X-Big: ${'a'.repeat(20_000)}`]),
      PROBLEM_TYPES.headersTooLarge,
    ],
    [
      'a Transfer-Encoding that is not chunked, with a JSON body',
      post(['Content-Type: application/json', 'Transfer-Encoding: gzip'], '{"a":1}'),
      PROBLEM_TYPES.malformedRequest,
    ],
    [
      'a Transfer-Encoding that is not chunked, without a content type',
      post(['Transfer-Encoding: gzip']),
      PROBLEM_TYPES.malformedRequest,
    ],
    [
      'a Transfer-Encoding that ends with another coding',
      post(['Transfer-Encoding: chunked, gzip']),
      PROBLEM_TYPES.malformedRequest,
    ],
    [
      'Transfer-Encoding and Content-Length together',
      post(['Transfer-Encoding: chunked', 'Content-Length: 5'], '0\r\n\r\n'),
      PROBLEM_TYPES.malformedRequest,
    ],
    [
      'a chunk size that is no number',
      post(
        ['Content-Type: application/json', 'Transfer-Encoding: chunked'],
        'zz\r\n{}\r\n0\r\n\r\n',
      ),
      PROBLEM_TYPES.malformedRequest,
    ],
    [
      'two different Content-Length',
      post(['Content-Length: 2', 'Content-Length: 3'], '{}'),
      PROBLEM_TYPES.malformedRequest,
    ],
    [
      'an unsupported HTTP version',
      'GET /health/live HTTP/1.2\r\nHost: localhost\r\n\r\n',
      PROBLEM_TYPES.malformedRequest,
    ],
    [
      'bytes that are not HTTP (a TLS hello)',
      Buffer.from('160301020001000001fc0303', 'hex'),
      PROBLEM_TYPES.malformedRequest,
    ],
  ])('answers %s with one problem+json and closes the connection', async (_what, raw, type) => {
    expectOneProblem(await exchange(port, raw), type);
  });

  it('serves what HTTP allows: HTTP/1.0 without Host, an empty Host, 100-continue', async () => {
    const old = await exchange(port, 'GET /health/live HTTP/1.0\r\n\r\n');
    expect(old.responses.map((response) => response.status)).toEqual([200]);
    const empty = await exchange(port, get(['Host:', 'Connection: close']));
    expect(empty.responses.map((response) => response.status)).toEqual([200]);
    const continued = await exchange(
      port,
      post(['Expect: 100-continue', 'Content-Type: application/json', 'Content-Length: 2'], '{}'),
      true,
    );
    // The body came after the interim answer, and was read: a validation problem, not a 417.
    expect(continued.responses.map((response) => response.status)).toEqual([100, 400]);
    expect(JSON.parse(continued.responses[1].body)).toMatchObject({
      type: PROBLEM_TYPES.validation,
    });
  });

  it('answers a request cut by a parse error once, the answer already sent or this one', async () => {
    // A valid request, then garbage on the same connection: the first answer stands, the second
    // is the malformed-request problem, and the connection closes.
    const { responses, closedByServer } = await exchange(
      port,
      `${get(['Host: localhost'])}GARBAGE\r\n\r\n`,
    );
    expect(responses.map((response) => response.status)).toEqual([200, 400]);
    expect(JSON.parse(responses[1].body)).toMatchObject({ type: PROBLEM_TYPES.malformedRequest });
    expect(closedByServer).toBe(true);
  });
});
