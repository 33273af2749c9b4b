import { AsyncLocalStorage } from 'node:async_hooks';
import { type FastifyInstance, type FastifyRequest } from 'fastify';
import { type AuthenticatedAccount } from '../auth/authenticated-account';
import { REQUEST_ID_HEADER } from './request-id';

export type TrackedRequest = FastifyRequest & { user?: AuthenticatedAccount };

const storage = new AsyncLocalStorage<TrackedRequest>();

/** The request being served by the current asynchronous call chain, if any. */
export function currentRequest(): TrackedRequest | undefined {
  return storage.getStore();
}

/**
 * Makes the request reachable from anything it calls, so that every log line names it (Fastify
 * keeps the asynchronous context across body parsing), and echoes its id in X-Request-Id on
 * every response: errors, 404s and CORS preflights too, which are answered before any
 * onRequest hook of ours runs.
 */
export function trackRequests(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, _reply, done) => {
    asPartOf(request, done);
  });
  fastify.addHook('onSend', (request, reply, payload, done) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
    done(null, payload);
  });
}

/** Runs `work` as part of `request`: what it calls sees that request, and its account. */
export function asPartOf<T>(request: TrackedRequest, work: () => T): T {
  return storage.run(request, work);
}

/**
 * Runs `work` as part of no request. Events of long-lived resources (a pooled connection
 * failing while idle) fire in the asynchronous context of whichever request happened to create
 * them: their log lines must not name that request.
 */
export function outsideAnyRequest<T>(work: () => T): T {
  return storage.exit(work);
}
