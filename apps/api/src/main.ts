import { existsSync } from 'node:fs';
import { Logger } from '@nestjs/common';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { assertCanListen, type ListenSettings, whyNotListening } from './bootstrap/listening';
import { shutDown } from './bootstrap/graceful-shutdown';
import { type HttpConfig, type TracingConfig } from './config/app-config';
import { isDatabaseUnavailable } from './common/errors/database-unavailability';
import { applyHeapGrowth } from './config/apply-heap-growth';
import { StartupError } from './config/startup-error';
import { loadConfig } from './config/load-config';
import { METRICS_LISTEN_SETTINGS, MetricsServer } from './metrics/metrics-server';
import { type Tracing } from './tracing/tracing';

const logger = new Logger('Main');

async function main() {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const config = loadConfig();
  applyHeapGrowth(config.heapGrowingPercent);
  const { metrics } = config;
  // Before the database starts for nothing.
  await assertCanListen(config.host, config.port);
  if (metrics.port !== undefined) {
    await assertCanListen(metrics.host, metrics.port, METRICS_LISTEN_SETTINGS);
  }
  // Before the application loads: tracing instruments `pg` as it is first required, so nothing
  // imported above may load it (create-app.ts does).
  const tracing = await startTracingIfAsked(config.tracing);
  const { createApp } = await import('./bootstrap/create-app.js');
  const app = await createApp(config, { tracing });
  stopGracefullyOnSignals(app, config.http, tracing);
  await listenOrStop(app, () => app.listen({ port: config.port, host: config.host }), config);
  logger.log(`Listening on ${await app.getUrl()} (explorer at /docs)`);
  if (metrics.port !== undefined) {
    const port = metrics.port;
    const server = app.get(MetricsServer);
    await listenOrStop(app, () => server.listen(), { ...metrics, port }, METRICS_LISTEN_SETTINGS);
  }
}

/** The SDK is loaded only when OTEL_EXPORTER_OTLP_ENDPOINT is set. */
async function startTracingIfAsked(config: TracingConfig): Promise<Tracing | undefined> {
  const { endpoint } = config;
  if (endpoint === undefined) return undefined;
  const { startTracing } = await import('./tracing/start-tracing.js');
  return startTracing({ ...config, endpoint });
}

/**
 * Listens with `listen`. A port taken meanwhile stops the application (the database, the
 * embedded one too, goes with it) and says what to do.
 */
async function listenOrStop(
  app: NestFastifyApplication,
  listen: () => Promise<unknown>,
  where: { host: string; port: number },
  settings?: ListenSettings,
): Promise<void> {
  try {
    await listen();
  } catch (error) {
    await app.close().catch(() => undefined);
    throw whyNotListening(error, where.host, where.port, settings);
  }
}

/**
 * SIGTERM or SIGINT: stop accepting connections, let the requests in flight finish (within
 * SHUTDOWN_GRACE_MS), close the database pool and (last) the embedded PostgreSQL, send the
 * spans still held, then exit 0.
 * A second signal exits at once.
 */
function stopGracefullyOnSignals(
  app: NestFastifyApplication,
  http: HttpConfig,
  tracing: Tracing | undefined,
) {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn(`${signal} again: exiting without waiting`);
      process.exit(1);
    }
    stopping = true;
    logger.log(`${signal} received: finishing requests in flight, then stopping`);
    // The spans of the last requests go out last.
    shutDown(app, http)
      .then(() => tracing?.shutdown())
      .then(
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
  // A bad setting, a port or a folder in use: the operator's to fix; say what, without a trace.
  if (error instanceof StartupError) console.error(error.message);
  else console.error(error);
  process.exit(1);
});
