import { existsSync } from 'node:fs';
import { Logger } from '@nestjs/common';
import { createApp } from './bootstrap/create-app';
import { ConfigError, loadConfig } from './config/load-config';

async function main() {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const config = loadConfig();
  const app = await createApp(config);
  app.enableShutdownHooks();
  await app.listen({ port: config.port, host: config.host });
  new Logger('Main').log(`Listening on ${await app.getUrl()} (explorer at /docs)`);
}

main().catch((error: unknown) => {
  // A bad configuration is the operator's to fix: say what, without a stack trace.
  if (error instanceof ConfigError) console.error(error.message);
  else console.error(error);
  process.exit(1);
});
