import { existsSync } from 'node:fs';
import { Logger } from '@nestjs/common';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from './bootstrap/create-app';
import { ConfigError, loadConfig } from './config/load-config';

const logger = new Logger('Main');

async function main() {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const config = loadConfig();
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
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn(`${signal} again: exiting without waiting`);
      process.exit(1);
    }
    stopping = true;
    logger.log(`${signal} received: finishing requests in flight, then stopping`);
    app.close().then(
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

main().catch((error: unknown) => {
  // A bad configuration is the operator's to fix: say what, without a stack trace.
  if (error instanceof ConfigError) console.error(error.message);
  else console.error(error);
  process.exit(1);
});
