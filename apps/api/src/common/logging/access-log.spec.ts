import Fastify, { type FastifyInstance } from 'fastify';
import { pino } from 'pino';
import {
  DatabaseUnavailableError,
  ShuttingDownError,
  TooManyConcurrentRequestsError,
  WriteOutcomeUnknownError,
} from '../errors';
import { sendProblem, toProblem } from '../filters/problem';
import { logEveryRequest } from './access-log';

interface Line {
  level: number;
  msg: string;
  status: number;
  problemType?: string;
}

const LEVEL = { info: 30, warn: 40, error: 50 };

/** A real Fastify instance with the access log, answering each route as named. */
async function served(level = 'info') {
  const written: string[] = [];
  const fastify: FastifyInstance = Fastify();
  logEveryRequest(fastify, pino({ level }, { write: (line: string) => void written.push(line) }));
  const problem = (error: unknown) => (path: string) => toProblem(error, path);
  const answers: Record<string, (path: string) => ReturnType<typeof toProblem>> = {
    '/too-many': problem(new TooManyConcurrentRequestsError()),
    '/database-unavailable': problem(new DatabaseUnavailableError()),
    '/stopping': problem(new ShuttingDownError()),
    '/unknown-outcome': problem(new WriteOutcomeUnknownError()),
    '/fault': problem(new Error('a defect')),
  };
  for (const [path, answer] of Object.entries(answers)) {
    fastify.get(path, (_request, reply) => sendProblem(reply, answer(path)));
  }
  fastify.get('/ok', () => ({ ok: true }));
  fastify.get('/bare-503', (_request, reply) => reply.code(503).send());
  await fastify.ready();
  const lines = () => written.map((line) => JSON.parse(line) as Line);
  return { fastify, lines };
}

describe('the access log', () => {
  it.each([
    ['/too-many', 'warn', 'request refused', '/problems/too-many-concurrent-requests'],
    ['/database-unavailable', 'warn', 'request refused', '/problems/database-unavailable'],
    ['/stopping', 'warn', 'request refused', '/problems/shutting-down'],
    ['/unknown-outcome', 'warn', 'request refused', '/problems/write-outcome-unknown'],
    ['/fault', 'error', 'request failed', '/problems/internal'],
    ['/ok', 'info', 'request completed', undefined],
    ['/bare-503', 'error', 'request failed', undefined],
  ] as const)('writes %s at %s (%s)', async (path, level, msg, problemType) => {
    const { fastify, lines } = await served();
    const response = await fastify.inject({ method: 'GET', url: path });
    expect(lines()).toEqual([
      expect.objectContaining({ level: LEVEL[level], msg, status: response.statusCode }),
    ]);
    expect(lines()[0].problemType).toBe(problemType);
    await fastify.close();
  });

  it('builds no line below the log level, and still writes refusals at warn', async () => {
    const { fastify, lines } = await served('warn');
    await fastify.inject({ method: 'GET', url: '/ok' });
    await fastify.inject({ method: 'GET', url: '/too-many' });
    expect(lines().map((line) => line.msg)).toEqual(['request refused']);
    await fastify.close();
  });
});
