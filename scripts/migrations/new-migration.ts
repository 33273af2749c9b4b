/**
 * Writes the next migration: prisma/migrations/<UTC timestamp>_<name>/migration.sql holding the
 * SQL from the current migrations to schema.prisma, the layout `prisma migrate dev` produces.
 * Review the file before committing it; edit it by hand for what Prisma cannot express.
 *
 *   npx tsx scripts/migrations/new-migration.ts <name>
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import {
  describeError,
  diffMigrationsToSchema,
  ensureMigrationLock,
  exitWith,
  MIGRATIONS_DIR,
  PROJECT_ROOT,
} from './schema-diff';

async function main(args: string[]): Promise<number> {
  const name = toSnakeCase(args.join(' '));
  if (name === '') {
    console.error('Usage: npx tsx scripts/migrations/new-migration.ts <name>');
    return 2;
  }
  // The engine reads the connector from the lock file, so it must exist before the first diff.
  await ensureMigrationLock();
  const sql = await diffMigrationsToSchema();
  if (sql === '') {
    console.log('No schema changes');
    return 0;
  }
  const file = await writeMigration(`${timestamp(new Date())}_${name}`, sql);
  console.log(`Wrote ${relative(PROJECT_ROOT, file)}`);
  return 0;
}

/** "Add user email" and "addUserEmail" both become "add_user_email", as Prisma names folders. */
function toSnakeCase(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** YYYYMMDDHHMMSS in UTC, the prefix Prisma gives migration folders. */
function timestamp(date: Date): string {
  return date.toISOString().replace(/\D/g, '').slice(0, 14);
}

/** Refuses to overwrite: two migrations in the same second would otherwise collide silently. */
async function writeMigration(folderName: string, sql: string): Promise<string> {
  const folder = join(MIGRATIONS_DIR, folderName);
  await mkdir(folder);
  const file = join(folder, 'migration.sql');
  await writeFile(file, sql, { flag: 'wx' });
  return file;
}

void main(process.argv.slice(2))
  .catch((error: unknown) => {
    console.error(`Could not create the migration: ${describeError(error)}`);
    return 1;
  })
  .then(exitWith);
