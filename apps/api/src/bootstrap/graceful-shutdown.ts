import { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Logger } from '@nestjs/common';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { type FastifyInstance } from 'fastify';
import { ShuttingDownError } from '../common/errors';
import { sendProblem, toProblem } from '../common/filters/problem';
import { endEventStreams } from '../common/http/event-stream-response';
import { REQUEST_ID_HEADER } from '../common/logging/request-id';
import { type HttpConfig } from '../config/app-config';

const logger = new Logger('Shutdown');

/**
 * How long a keep-alive connection that is idle when the shutdown starts stays open. A client
 * may be sending its next request on it at that very moment: closing it at once would lose that
 * request (the client sees a reset after sending). Within the grace, such a request is answered
 * 503 with `Connection: close`; after it, connections still idle are closed.
 */
const IDLE_CONNECTION_GRACE_MS = 1000;

interface Drain {
  stopping: boolean;
  /** Requests received whose response has not closed yet. */
  inFlight: number;
}

const drains = new WeakMap<FastifyInstance, Drain>();

/**
 * Prepares `fastify` for a graceful shutdown (before it starts): once stopping, a request that
 * still arrives on an open connection is answered with the shutting-down problem and
 * `Connection: close`, as problem+json like every other answer (Fastify's own 503 is plain
 * JSON, so it is switched off in create-app.ts).
 */
export function prepareShutdown(fastify: FastifyInstance): void {
  const drain: Drain = { stopping: false, inFlight: 0 };
  drains.set(fastify, drain);
  // A count, not a Set of the responses: a long-lived Set that every response enters and leaves
  // keeps the requests' objects reachable for V8's young-generation collector (its replaced
  // tables still point at them), so that they all move to the old generation and wait for a
  // full collection. Under load that was a tenth of all allocation, and a full collection, with
  // its pause, twice a second.
  fastify.server.on('request', (_request: IncomingMessage, response: ServerResponse) => {
    drain.inFlight += 1;
    response.once('close', () => (drain.inFlight -= 1));
  });
  // Answers sent once stopping close their connection, so that their clients send the next
  // request elsewhere. (One whose onSend hooks had run before is closed by the idle sweep.)
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    if (drain.stopping) void reply.header('connection', 'close');
    done(null, payload);
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    if (!drain.stopping) {
      done();
      return;
    }
    sendProblem(reply, toProblem(new ShuttingDownError(), request.url.split('?')[0]), {
      connection: 'close',
      [REQUEST_ID_HEADER]: request.id,
    });
  });
}

/**
 * Stops the application without failing what it accepted, and within `shutdownGraceMs` even
 * when a client never finishes its request. The order matters. Nest's app.close() runs the
 * onModuleDestroy hooks (the database pool, and anything else a module holds) before it stops
 * the HTTP server, which would fail the requests in flight and still accept new ones meanwhile.
 * So HTTP goes first:
 * 1. no new connections; requests arriving on open connections get the shutting-down problem
 *    with `Connection: close`; answers sent from now on close their connection too; event
 *    streams end;
 * 2. wait until every connection is closed (in-flight requests answered, with the database),
 *    but no longer than the grace: then every connection still open is cut;
 * 3. app.close(): module hooks (pool), then the embedded PostgreSQL.
 */
export async function shutDown(app: NestFastifyApplication, http: HttpConfig): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance();
  const drain = drains.get(fastify);
  if (drain) drain.stopping = true;
  // An event stream never ends by itself: it ends now, and its client reconnects elsewhere.
  endEventStreams(fastify);
  const server: Server = app.getHttpServer();
  // Node's server.close() closes idle connections at once: defer that (see the grace above),
  // then sweep until the server has closed, since answered connections become idle too.
  const closeIdleConnections = server.closeIdleConnections.bind(server);
  server.closeIdleConnections = () => undefined;
  const sweep = setInterval(closeIdleConnections, IDLE_CONNECTION_GRACE_MS);
  const deadline = setTimeout(() => {
    const open = drain?.inFlight ?? 0;
    logger.warn(
      `Shutdown grace of ${http.shutdownGraceMs} ms over: closing the connections still open (${open} requests unfinished)`,
    );
    server.closeAllConnections();
  }, http.shutdownGraceMs);
  try {
    await app.getHttpAdapter().close();
  } finally {
    clearTimeout(deadline);
    clearInterval(sweep);
    server.closeIdleConnections = closeIdleConnections;
  }
  await app.close();
}
