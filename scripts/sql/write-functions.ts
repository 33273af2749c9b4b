// `npm run sql:functions`: writes apps/api/src/layout/queries/functions.sql from a fresh database
// migrated by prisma/migrations (see database-functions.ts): on the server DATABASE_URL names,
// or on an embedded PostgreSQL started for the occasion. Review the diff with the migration.
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { Client } from 'pg';
import { createTestDatabase } from '../../test/setup/test-database';
import { FUNCTIONS_FILE, renderFunctionsFile } from './database-functions';

async function main(): Promise<void> {
  const database = await createTestDatabase();
  try {
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      writeFileSync(FUNCTIONS_FILE, await renderFunctionsFile(client));
    } finally {
      await client.end();
    }
  } finally {
    await database.drop();
  }
  console.log(`Wrote ${relative(process.cwd(), FUNCTIONS_FILE)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
