import { Agent } from 'node:http';
import { connect, type Socket } from 'node:net';
import { eventually } from '../support/eventually';
import { testDatabaseUrl } from './support/databases';
import { JsonClient, send } from './support/http';
import { startService, stopAllServices } from './support/service-process';

const HEADERS_TIMEOUT_MS = 600;
const REQUEST_TIMEOUT_MS = 1200;
const SHUTDOWN_GRACE_MS = 2000;
/**
 * A trickling client is never cut off but by its deadline (it is never idle), so the bound is
 * far past the deadline: late by a second or so (Node checks the request deadlines once a
 * second, and a busy machine schedules late), it is cut off; not cut off, it would go on.
 */
const CUT_OFF_WITHIN = (deadlineMs: number) => 10 * deadlineMs;

/** A raw connection that sends `head` at once, then one more byte every `everyMs`. */
function trickle(port: number, head: string, everyMs: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  const received: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  socket.on('error', () => undefined);
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
  socket.write(head);
  const drip = setInterval(() => {
    if (socket.writable) socket.write('x');
  }, everyMs);
  void closed.then(() => clearInterval(drip));
  return {
    closed,
    text: () => Buffer.concat(received).toString('utf8'),
    destroy: () => {
      clearInterval(drip);
      socket.destroy();
    },
  };
}

const BODY_HEAD = (token: string, path: string) =>
  `POST ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\n` +
  'Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"type":"text","data":{"html":"';

describe('slow clients: every request has a deadline', () => {
  afterAll(() => stopAllServices(), 30_000);

  it('answers 408 problem+json to headers and to a body that trickle in, and closes', async () => {
    const service = await startService({
      DATABASE_URL: testDatabaseUrl(),
      HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    });
    const setup = new JsonClient(service.port);
    const { token } = await setup.newAccount('trickle');
    const { contentsPath } = await setup.newColumn(token);

    const startedAt = Date.now();
    const slowHeaders = trickle(service.port, 'GET /health/live HTTP/1.1\r\nX-Slow: ', 100);
    const slowBody = trickle(service.port, BODY_HEAD(token, contentsPath), 100);
    try {
      const [headersClosedAt, bodyClosedAt] = await Promise.all([
        slowHeaders.closed,
        slowBody.closed,
      ]);
      expect(headersClosedAt - startedAt).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50);
      expect(headersClosedAt - startedAt).toBeLessThan(CUT_OFF_WITHIN(HEADERS_TIMEOUT_MS));
      expect(bodyClosedAt - startedAt).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
      expect(bodyClosedAt - startedAt).toBeLessThan(CUT_OFF_WITHIN(REQUEST_TIMEOUT_MS));
      for (const answer of [slowHeaders.text(), slowBody.text()]) {
        expect(answer).toMatch(/^HTTP\/1\.1 408 /);
        expect(answer).toMatch(/\r\ncontent-type: application\/problem\+json/i);
        expect(answer).toContain('"type":"/problems/request-timeout"');
      }
    } finally {
      slowHeaders.destroy();
      slowBody.destroy();
    }
    // Nothing of the trickled body was stored.
    expect(await setup.expect(200, 'GET', contentsPath, undefined, token)).toEqual([]);
  }, 60_000);

  it('exits within the shutdown grace while a client trickles, answering the drain as problem+json', async () => {
    const service = await startService({
      DATABASE_URL: testDatabaseUrl(),
      SHUTDOWN_GRACE_MS: String(SHUTDOWN_GRACE_MS),
      // Long enough that only the shutdown grace can end the trickling request.
      HTTP_REQUEST_TIMEOUT_MS: '120000',
    });
    const setup = new JsonClient(service.port);
    const { token } = await setup.newAccount('trickle');
    const { contentsPath, projectId } = await setup.newColumn(token);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const auth = { authorization: `Bearer ${token}` };
    const read = () =>
      send({
        port: service.port,
        method: 'GET',
        path: `/projects/${projectId}`,
        headers: auth,
        agent,
      });
    const slowBody = trickle(service.port, BODY_HEAD(token, contentsPath), 200);
    try {
      expect(await read()).toMatchObject({ kind: 'answered', status: 200 });
      const signalledAt = Date.now();
      service.signal('SIGTERM');
      await eventually(
        () => service.output().includes('SIGTERM received'),
        'the service to start its shutdown',
      );
      // The keep-alive connection was idle at SIGTERM: its next request is answered, and told
      // to go elsewhere.
      const drained = await read();
      expect(drained).toMatchObject({
        kind: 'answered',
        status: 503,
        reusedSocket: true,
        headers: expect.objectContaining({
          connection: 'close',
          'content-type': expect.stringMatching(/^application\/problem\+json/),
          'retry-after': expect.any(String),
        }),
        body: expect.objectContaining({ type: '/problems/shutting-down', status: 503 }),
      });
      const exit = await service.exitWithin(CUT_OFF_WITHIN(SHUTDOWN_GRACE_MS));
      expect(exit).toEqual({ code: 0, signal: null });
      expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(SHUTDOWN_GRACE_MS - 50);
    } finally {
      agent.destroy();
      slowBody.destroy();
    }
  }, 60_000);
});
