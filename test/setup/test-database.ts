import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import {
  startEmbeddedPostgres,
  type RunningEmbeddedPostgres,
} from '../../apps/api/src/embedded-postgres/embedded-postgres';
import { applyPendingMigrations } from '../../apps/api/src/database-server/migrations-runner';
import { freePort } from '../support/free-port';

/**
 * A fresh, migrated database for one test run: on the server named by DATABASE_URL when set,
 * otherwise on an embedded PostgreSQL started for the run (the service's default).
 */
export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `layout_test_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const given = process.env.DATABASE_URL;
  let embedded: RunningEmbeddedPostgres | undefined;
  let serverUrl: string;
  let folder: string | undefined;
  if (given) {
    serverUrl = given;
  } else {
    folder = await mkdtemp(join(tmpdir(), 'layout-e2e-'));
    embedded = await startEmbeddedPostgres({
      dataDir: join(folder, 'postgres'),
      port: await freePort(),
    });
    serverUrl = embedded.url;
  }

  await adminQuery(serverUrl, `CREATE DATABASE "${name}"`);
  const url = withDatabase(serverUrl, name);
  await applyPendingMigrations(url, { log: () => undefined, warn: console.warn });

  return {
    url,
    drop: async () => {
      if (embedded) {
        await embedded.stop();
        // The cluster, wherever it went (as root, under /var/tmp: see resolveDataDir), and the
        // run's folder: a run leaves nothing behind.
        await rm(embedded.dataDir, { recursive: true, force: true });
        if (folder !== undefined) await rm(folder, { recursive: true, force: true });
        return;
      }
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}

async function adminQuery(url: string, sql: string) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
