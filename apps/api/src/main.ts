import { existsSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Logger } from '@nestjs/common';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from './bootstrap/create-app';
import { isDatabaseUnavailable } from './database/database-errors';
import { applyHeapGrowth } from './config/apply-heap-growth';
import { ConfigError, loadConfig } from './config/load-config';

const logger = new Logger('Main');

async function main() {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const config = loadConfig();
  applyHeapGrowth(config.heapGrowingPercent);
  const app = await createApp(config);
  stopGracefullyOnSignals(app);
  await app.listen({ port: config.port, host: config.host });
  logger.log(`Listening on ${await app.getUrl()} (explorer at /docs)`);
}

/**
 * SIGTERM or SIGINT: stop accepting connections, let the requests in flight finish, close the
 * database pool and (last) the embedded PostgreSQL, then exit 0. A second signal exits at once.
 */
function stopGracefullyOnSignals(app: NestFastifyApplication) {
  const inFlight = trackResponses(app.getHttpServer());
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn(`${signal} again: exiting without waiting`);
      process.exit(1);
    }
    stopping = true;
    logger.log(`${signal} received: finishing requests in flight, then stopping`);
    shutDown(app, inFlight).then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error('Shutdown failed', error instanceof Error ? error.stack : String(error));
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

/**
 * How long a keep-alive connection that is idle when the shutdown starts stays open. A client
 * may be sending its next request on it at that very moment: closing it at once would lose that
 * request (the client sees a reset after sending). Within the grace, such a request is answered
 * 503 with `Connection: close`; after it, connections still idle are closed.
 */
const IDLE_CONNECTION_GRACE_MS = 1000;

/**
 * The order matters. Nest's app.close() runs the onModuleDestroy hooks (the Prisma pool, and
 * anything else a module holds) before it stops the HTTP server, which would fail the requests
 * in flight and still accept new ones meanwhile. So HTTP goes first:
 * 1. no new connections; requests arriving on open connections get Fastify's 503 with
 *    `Connection: close`; responses in flight close their connection once sent;
 * 2. wait until every connection is closed (in-flight requests answered, with the database);
 * 3. app.close(): module hooks (pool), then the embedded PostgreSQL.
 */
async function shutDown(app: NestFastifyApplication, inFlight: ReadonlySet<ServerResponse>) {
  const server: Server = app.getHttpServer();
  for (const response of inFlight) {
    if (!response.headersSent) response.setHeader('connection', 'close');
  }
  // Node's server.close() closes idle connections at once: defer that (see the grace above),
  // then sweep until the server has closed, since answered connections become idle too.
  const closeIdleConnections = server.closeIdleConnections.bind(server);
  server.closeIdleConnections = () => undefined;
  const sweep = setInterval(closeIdleConnections, IDLE_CONNECTION_GRACE_MS);
  try {
    await app.getHttpAdapter().close();
  } finally {
    clearInterval(sweep);
    server.closeIdleConnections = closeIdleConnections;
  }
  await app.close();
}

/** The responses not yet finished, so that the shutdown can close their connections after them. */
function trackResponses(server: Server): ReadonlySet<ServerResponse> {
  const open = new Set<ServerResponse>();
  server.on('request', (_request: IncomingMessage, response: ServerResponse) => {
    open.add(response);
    response.once('close', () => open.delete(response));
  });
  return open;
}

/**
 * A connection to PostgreSQL that breaks while idle or half-open (the server restarting) can
 * surface as an error event or a rejection that no request awaits. Those must not take the
 * process down: the pool reconnects by itself. Anything else is a defect: log it and exit.
 */
function surviveDatabaseConnectionErrors() {
  const onStray = (kind: string) => (error: unknown) => {
    if (isDatabaseUnavailable(error)) {
      logger.warn(`${kind} from a database connection (the pool reconnects): ${String(error)}`);
      return;
    }
    logger.fatal(`${kind}: exiting`, error instanceof Error ? error.stack : String(error));
    process.exit(1);
  };
  process.on('uncaughtException', onStray('Uncaught exception'));
  process.on('unhandledRejection', onStray('Unhandled rejection'));
}

surviveDatabaseConnectionErrors();
main().catch((error: unknown) => {
  // A bad configuration is the operator's to fix: say what, without a stack trace.
  if (error instanceof ConfigError) console.error(error.message);
  else console.error(error);
  process.exit(1);
});
