import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, { type FastifyInstance } from 'fastify';
import { type AddressInfo } from 'node:net';
import { type AuthenticatedAccount } from '../auth/authenticated-account';
import { createRootLogger } from './root-logger';
import { trackRequests } from './request-context';

describe('request context of log lines', () => {
  const written: string[] = [];
  const logger = createRootLogger('info', { write: (line: string) => void written.push(line) });
  let fastify: FastifyInstance;
  let base: string;

  beforeAll(async () => {
    fastify = Fastify({ genReqId: () => `req-${written.length}` });
    trackRequests(fastify);
    fastify.post('/echo', async (request) => {
      // After the body was read (another asynchronous context) and after more waiting.
      await sleep(5);
      (request as typeof request & { user?: AuthenticatedAccount }).user = {
        id: 'acc-1',
        username: 'alice',
      };
      await sleep(5);
      logger.info('inside the handler');
      return request.body;
    });
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(fastify.server.address() as AddressInfo).port}`;
  });

  afterAll(() => fastify.close());

  it('carry the request id and the account of the request being served', async () => {
    // The body arrives in pieces, some time after the headers.
    const body = new ReadableStream({
      async start(controller) {
        for (const piece of ['{"some":', '"x', 'y"}']) {
          await sleep(20);
          controller.enqueue(new TextEncoder().encode(piece));
        }
        controller.close();
      },
    });
    const response = await fetch(`${base}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      duplex: 'half',
    });
    expect(response.status).toBe(200);
    const requestId = response.headers.get('x-request-id');
    expect(requestId).toMatch(/^req-/);
    logger.info('outside any request');
    const [inside, outside] = written.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(inside).toMatchObject({ msg: 'inside the handler', requestId, accountId: 'acc-1' });
    expect(outside).toMatchObject({ msg: 'outside any request' });
    expect(outside).not.toHaveProperty('requestId');
  });
});
