import { type FastifyInstance } from 'fastify';
import { type Logger } from 'pino';
import { answeredProblemOf } from './answered-problem';
import { type TrackedRequest } from './request-context';

const MAX_PATH_LENGTH = 256;
const MESSAGES = { info: 'request completed', warn: 'request refused', error: 'request failed' };

/**
 * One line per request once its response is sent: method, route pattern, path (no query string,
 * which may carry secrets), status, duration, request id and account, and the problem type of
 * an error answer. Headers and bodies are never logged. The level is the problem's (see
 * problem-catalog.ts): a documented refusal (429, 503 with Retry-After) is a warning, a fault
 * of the service an error, anything else information.
 */
export function logEveryRequest(fastify: FastifyInstance, logger: Logger): void {
  const access = logger.child({ context: 'HTTP' });
  fastify.addHook('onResponse', (request: TrackedRequest, reply, done) => {
    const status = reply.statusCode;
    const problem = answeredProblemOf(reply);
    const level = problem?.level ?? (status >= 500 ? 'error' : 'info');
    // Below the log level (a benchmark runs at warn) the line is not even built.
    if (!access.isLevelEnabled(level)) return done();
    const line = {
      requestId: request.id,
      accountId: request.user?.id,
      method: request.method,
      route: request.routeOptions.url,
      path: request.url.split('?')[0].slice(0, MAX_PATH_LENGTH),
      status,
      problemType: problem?.type,
      durationMs: Math.round(reply.elapsedTime * 10) / 10,
    };
    access[level](line, MESSAGES[level]);
    done();
  });
}
