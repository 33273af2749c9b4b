import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { applyPendingMigrations } from '../../apps/api/src/database-server/migrations-runner';
import { FUNCTIONS_FILE, renderFunctionsFile } from '../../scripts/sql/database-functions';
import { createFreshDatabase } from '../resilience/support/databases';

// The committed functions.sql is what the migrations make of a database: a migration that
// changes a function or a trigger fails here until the file is written again.
describe('the database’s functions and triggers (apps/api/src/layout/queries/functions.sql)', () => {
  it('are what the migrations leave in a fresh database (refresh with `npm run sql:functions`)', async () => {
    // A database of its own: other test files add functions of theirs to the run's for a while.
    const database = await createFreshDatabase('functions_file');
    try {
      await applyPendingMigrations(database.url, { log: () => undefined, warn: console.warn });
      const client = new Client({ connectionString: database.url });
      await client.connect();
      try {
        expect(readFileSync(FUNCTIONS_FILE, 'utf8')).toBe(await renderFunctionsFile(client));
      } finally {
        await client.end();
      }
    } finally {
      await database.drop();
    }
  });
});
