import { type FastifyInstance } from 'fastify';
import { type Logger } from 'pino';
import { type TrackedRequest } from './request-context';

const MAX_PATH_LENGTH = 256;

/**
 * One line per request once its response is sent: method, route pattern, path (no query string,
 * which may carry secrets), status, duration, request id and account. Headers and bodies are
 * never logged.
 */
export function logEveryRequest(fastify: FastifyInstance, logger: Logger): void {
  const access = logger.child({ context: 'HTTP' });
  fastify.addHook('onResponse', (request: TrackedRequest, reply, done) => {
    const status = reply.statusCode;
    // Below the log level (a benchmark runs at warn) the line is not even built.
    if (status < 500 && !access.isLevelEnabled('info')) return done();
    const line = {
      requestId: request.id,
      accountId: request.user?.id,
      method: request.method,
      route: request.routeOptions.url,
      path: request.url.split('?')[0].slice(0, MAX_PATH_LENGTH),
      status,
      durationMs: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (status >= 500) access.error(line, 'request failed');
    else access.info(line, 'request completed');
    done();
  });
}
