// `npm run db:migrate`: applies pending migrations to DATABASE_URL, or to the embedded
// PostgreSQL when it is not set (the service also does this itself at start).
import { existsSync } from 'node:fs';
import { DatabaseServer } from '../../apps/api/src/database-server/database-server';
import { loadConfig } from '../../apps/api/src/config/load-config';

async function main() {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const config = loadConfig();
  const server = await DatabaseServer.start({ ...config.database, migrateOnStart: true });
  await server.onApplicationShutdown();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
