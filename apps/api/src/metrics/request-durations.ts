import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { Histogram } from 'prom-client';
import { answeredProblemOf } from '../common/logging/answered-problem';
import { type Metrics } from './metrics';

/** OpenTelemetry's advised buckets for `http.server.request.duration`, in seconds. */
export const HTTP_DURATION_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
];

/** `http_route` of a request that matched no route: one label for every unknown path. */
export const UNMATCHED_ROUTE = 'unmatched';

/** The methods OpenTelemetry names as they are; any other is `_OTHER`. */
const KNOWN_METHODS = new Set([
  'CONNECT',
  'DELETE',
  'GET',
  'HEAD',
  'OPTIONS',
  'PATCH',
  'POST',
  'PUT',
  'TRACE',
]);

type RecordAnswer = (request: FastifyRequest, reply: FastifyReply) => void;

/**
 * Records every answer's duration in `http_server_request_duration_seconds` (OpenTelemetry's
 * `http.server.request.duration`, by method, route template and status) and counts the
 * refusals among them. The route is the template a route was declared with, bound to the route
 * when it is added (the onRoute hook), so that no id of a path ever becomes a label and a request
 * costs no lookup of it; requests that match no route share one label. Must be called before
 * any route is added.
 */
export function recordRequestDurations(fastify: FastifyInstance, metrics: Metrics): void {
  const durations = new Histogram({
    name: 'http_server_request_duration_seconds',
    help: 'Duration of HTTP server requests, from the first byte read to the last byte written',
    labelNames: ['http_request_method', 'http_route', 'http_response_status_code'],
    buckets: HTTP_DURATION_BUCKETS,
    registers: [metrics.registry],
  });
  const recorder =
    (route: string): RecordAnswer =>
    (request, reply) => {
      durations.observe(
        {
          http_request_method: KNOWN_METHODS.has(request.method) ? request.method : '_OTHER',
          http_route: route,
          http_response_status_code: reply.statusCode,
        },
        reply.elapsedTime / 1000,
      );
      const problem = answeredProblemOf(reply);
      if (problem !== undefined) metrics.answeredProblem(problem.type);
    };

  fastify.addHook('onRoute', (route) => {
    const record = recorder(route.url);
    const own = route.onResponse;
    const hook = (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      record(request, reply);
      done();
    };
    route.onResponse = own === undefined ? [hook] : [...(Array.isArray(own) ? own : [own]), hook];
  });
  const unmatched = recorder(UNMATCHED_ROUTE);
  fastify.addHook('onResponse', (request, reply, done) => {
    if (request.is404) unmatched(request, reply);
    done();
  });
}
