import { type Span } from '@opentelemetry/api';
import { type FastifyInstance, type FastifyRequest } from 'fastify';
import { type TrackedRequest } from '../common/logging/request-context';

/**
 * Named as OpenTelemetry's HTTP conventions name a server span: the method and the route's
 * template. `url.path` without the query, which may carry a secret (an event stream's ticket).
 */
export function nameRequestSpan(span: Span, request: FastifyRequest): void {
  const route = request.routeOptions.url;
  span.updateName(route === undefined ? request.method : `${request.method} ${route}`);
  span.setAttribute('url.path', request.url.split('?')[0]);
}

/**
 * Adds the account to its request's span once known (the bearer guard runs in the handler), as
 * `user.id`: its id, never its token or name. onSend runs before the span ends (@fastify/otel
 * ends it in a hook of the route that runs last).
 */
export function nameTheAccount(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (request: TrackedRequest, _reply, payload, done) => {
    const account = request.user?.id;
    if (account !== undefined) request.opentelemetry().span?.setAttribute('user.id', account);
    done(null, payload);
  });
}
