import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Client } from 'pg';
import { isDatabaseUnavailable } from '../common/errors/database-unavailability';
import { StartupError } from '../config/startup-error';

// Prisma's own advisory-lock key: holding it also excludes a concurrent `prisma migrate deploy`.
const MIGRATION_LOCK_KEY = 72707369;

export interface MigrationLog {
  log(message: string): void;
  warn(message: string): void;
}

/**
 * Applies the pending migrations of prisma/migrations in name order, each in its own transaction,
 * and records them in `_prisma_migrations` exactly as `prisma migrate deploy` would (checksum =
 * SHA-256 of migration.sql), so either tool can take over. The advisory lock makes it safe for
 * several instances that start at the same moment: one applies, the others wait and find nothing
 * left to do. Returns the names it applied.
 */
export async function applyPendingMigrations(
  connectionString: string,
  log: MigrationLog,
  migrationsDir = findMigrationsDir(),
): Promise<string[]> {
  const client = new Client({ connectionString, application_name: 'layout-service-migrate' });
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw isDatabaseUnavailable(error) ? cannotMigrate(connectionString, error) : error;
  }
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await ensureMigrationsTable(client);
      return await applyMissing(client, migrationsDir, log);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await client.end();
  }
}

/**
 * A database that cannot be reached at the start: what to check, in one sentence, naming the
 * server and the database but not the credentials.
 */
function cannotMigrate(connectionString: string, error: unknown): StartupError {
  const url = URL.parse(connectionString);
  const where = url ? `${url.hostname}:${url.port || '5432'}${url.pathname}` : 'DATABASE_URL';
  const reason = error instanceof Error ? error.message : String(error);
  return new StartupError(
    `The database at ${where} cannot be reached to apply its migrations (${reason}): check ` +
      'DATABASE_URL and that PostgreSQL runs there, then start again.',
  );
}

async function applyMissing(client: Client, dir: string, log: MigrationLog): Promise<string[]> {
  const recorded = await client.query<{
    migration_name: string;
    checksum: string;
    finished_at: Date | null;
  }>(
    'SELECT migration_name, checksum, finished_at FROM _prisma_migrations WHERE rolled_back_at IS NULL',
  );
  const failed = recorded.rows.find((row) => row.finished_at === null);
  if (failed) {
    throw new Error(
      `Migration ${failed.migration_name} failed earlier and is not marked as rolled back; ` +
        'fix the database by hand, then mark it rolled back or finished in _prisma_migrations.',
    );
  }
  const applied = new Map(recorded.rows.map((row) => [row.migration_name, row.checksum]));

  const done: string[] = [];
  for (const name of await listMigrations(dir)) {
    const sql = await readFile(join(dir, name, 'migration.sql'), 'utf8');
    const checksum = createHash('sha256').update(sql).digest('hex');
    const appliedChecksum = applied.get(name);
    if (appliedChecksum !== undefined) {
      if (appliedChecksum !== checksum) {
        log.warn(`Migration ${name} was changed after it was applied; the change is not applied.`);
      }
      continue;
    }
    await applyOne(client, name, sql, checksum);
    log.log(`Applied migration ${name}`);
    done.push(name);
  }
  return done;
}

async function applyOne(client: Client, name: string, sql: string, checksum: string) {
  const id = randomUUID();
  await client.query('BEGIN');
  try {
    await client.query(
      'INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at) VALUES ($1, $2, $3, now())',
      [id, checksum, name],
    );
    // One simple-protocol query keeps `$$` bodies and multi-statement scripts intact.
    await client.query(sql);
    await client.query(
      'UPDATE _prisma_migrations SET finished_at = now(), applied_steps_count = 1 WHERE id = $1',
      [id],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Migration ${name} failed and was rolled back: ${reason}`);
  }
}

async function ensureMigrationsTable(client: Client) {
  // The same definition as Prisma's migrate engine.
  await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum" VARCHAR(64) NOT NULL,
    "finished_at" TIMESTAMPTZ,
    "migration_name" VARCHAR(255) NOT NULL,
    "logs" TEXT,
    "rolled_back_at" TIMESTAMPTZ,
    "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count" INTEGER NOT NULL DEFAULT 0
  )`);
}

async function listMigrations(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'migration.sql')))
    .map((entry) => entry.name)
    .sort();
}

/**
 * prisma/migrations of this repository, found above the entry script (the build output, a
 * script, or the test runner inside node_modules) or else above the working directory.
 * `__dirname` is not used because the same source also runs as an ES module under Jest.
 */
export function findMigrationsDir(): string {
  const starts = [process.argv[1] ? dirname(process.argv[1]) : undefined, process.cwd()].filter(
    (start): start is string => start !== undefined,
  );
  for (const start of starts) {
    for (let dir = start; ; dir = dirname(dir)) {
      const candidate = join(dir, 'prisma', 'migrations');
      if (existsSync(candidate)) return candidate;
      if (dir === dirname(dir)) break;
    }
  }
  throw new Error(`No prisma/migrations folder found above ${starts.join(' or ')}`);
}
