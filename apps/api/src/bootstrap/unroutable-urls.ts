import { HttpException, NotFoundException } from '@nestjs/common';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { sendProblem, toProblem } from '../common/filters/problem';
import { REQUEST_ID_HEADER } from '../common/logging/request-id';

function pathOf(request: FastifyRequest): string {
  return request.url.split('?')[0];
}

/**
 * Fastify's router refuses some paths before any route or hook sees them (a `%` that is no
 * valid percent-encoding, a segment past maxParamLength) and would answer with JSON of its
 * own. These are ids of the wrong shape: the contract's answer is the not-found problem. (No
 * hook runs for them, so the request id is set here; helmet's and CORS headers are missing.)
 */
export function answerUnroutableUrl(
  _error: Error,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const problem = toProblem(new NotFoundException('No resource has this path'), pathOf(request));
  sendProblem(reply, problem, { [REQUEST_ID_HEADER]: request.id });
}

type CorsOptions = NonNullable<Parameters<NestFastifyApplication['enableCors']>[0]>;

/** The methods a route can have besides OPTIONS, in the order `Allow` lists them. */
const ROUTED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * The methods `path` has, as an `Allow` header lists them: those of the routes Fastify's router
 * matches it with (HEAD wherever GET is, as Fastify exposes it), and OPTIONS, which every path
 * answers; none when no route has the path. A match through a wildcard (`/docs/*`, the
 * explorer's files, which say themselves which names exist) makes no path known.
 */
export function allowedMethods(fastify: FastifyInstance, path: string): string[] {
  const methods = ROUTED_METHODS.filter((method) => {
    const route = fastify.findRoute({ method, url: path }) as ReturnType<
      FastifyInstance['findRoute']
    > | null;
    return route !== null && !('*' in (route.params ?? {}));
  });
  return methods.length === 0 ? [] : [...methods, 'OPTIONS'];
}

/** A CORS preflight names the method it asks for; any other OPTIONS is a request of its own. */
function isPreflight(request: FastifyRequest): boolean {
  return (
    request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined
  );
}

/**
 * The CORS options, applied so that @fastify/cors answers preflights only: it would answer any
 * other OPTIONS request 400 "Invalid Preflight Request" (text/plain) before another hook runs.
 * For those it still adds the CORS headers and leaves the answer to answerOtherMethods. A
 * request without `Origin` (not a browser's cross-origin one) gets `Vary: Origin` alone: which
 * headers a browser script may read means nothing to it.
 */
export function corsForPreflightsOnly(options: CorsOptions): CorsOptions {
  const notPreflight: CorsOptions = { ...options, preflight: false };
  const { exposedHeaders: _exposed, ...noOrigin } = notPreflight;
  return {
    delegator: (request, callback) =>
      callback(
        null,
        isPreflight(request)
          ? options
          : request.headers.origin === undefined
            ? noOrigin
            : notPreflight,
      ),
  };
}

/**
 * Answers the methods a path does not have, once the request id, the security and the CORS
 * headers are set (registered after their hooks):
 * - a known path with another method: 405 `/problems/method-not-allowed` with `Allow`;
 * - OPTIONS on a known path, not a CORS preflight: 204 with `Allow`;
 * - any of them on an unknown path: the not-found problem, as before (the not-found handler).
 */
export function answerOtherMethods(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    const bareOptions = request.method === 'OPTIONS' && !isPreflight(request);
    if (!bareOptions && !request.is404) {
      done();
      return;
    }
    const path = pathOf(request);
    const allowed = allowedMethods(fastify, path);
    if (allowed.length === 0) {
      if (bareOptions) reply.callNotFound();
      else done();
      return;
    }
    const allow = allowed.join(', ');
    if (bareOptions) {
      void reply.status(204).header('allow', allow).send();
      return;
    }
    const detail = `${request.method} is not a method of this path; it has ${allow}`;
    sendProblem(reply, toProblem(new HttpException(detail, 405), path), { allow });
  });
}
