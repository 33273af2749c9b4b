import { type FastifyInstance, type FastifyRequest } from 'fastify';
import { type AuthenticatedAccount } from '../common/auth/authenticated-account';
import { CACHE_CONTROL_CONFIG, PRIVATE_REVALIDATED } from '../common/http/cache-control';

/**
 * `Cache-Control` of the API's answers, in one place, whatever answered (a controller, the
 * problem filter, a guard): what the route names (`@NoStore()`), else `private, no-cache` on
 * every answer to an authenticated GET or HEAD (200 and 304 alike), so that a browser keeps an
 * account's documents and revalidates them with their `ETag`, and no shared cache serves them
 * to anyone. The other answers keep their own: the problem pages and the explorer's files set
 * theirs, a write's answer is not cacheable anyway.
 */
export function configureCacheControl(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const policy = cacheControlOf(request);
    if (policy !== undefined) void reply.header('cache-control', policy);
    done(null, payload);
  });
}

function cacheControlOf(request: FastifyRequest & { user?: AuthenticatedAccount }) {
  const config = request.routeOptions.config as unknown as Record<string, unknown> | undefined;
  const configured = config?.[CACHE_CONTROL_CONFIG];
  if (typeof configured === 'string') return configured;
  const read = request.method === 'GET' || request.method === 'HEAD';
  return read && request.user !== undefined ? PRIVATE_REVALIDATED : undefined;
}
