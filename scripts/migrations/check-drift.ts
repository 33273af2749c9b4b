/**
 * Fails (exit code 1) when prisma/migrations does not produce the database that
 * prisma/schema.prisma describes, printing the SQL a new migration would need; also fails when a
 * migration cannot be applied to an empty database. Meant for CI and pre-commit.
 *
 *   npx tsx scripts/migrations/check-drift.ts
 */
import { describeError, diffMigrationsToSchema, exitWith } from './schema-diff';

async function main(): Promise<number> {
  const missing = await diffMigrationsToSchema();
  if (missing === '') {
    console.log('Migrations match schema.prisma');
    return 0;
  }
  console.error('schema.prisma has changes that no migration contains. Missing SQL:\n');
  console.log(missing.trimEnd());
  console.error('\nCreate a migration: npx tsx scripts/migrations/new-migration.ts <name>');
  return 1;
}

void main()
  .catch((error: unknown) => {
    console.error(`Could not check the migrations: ${describeError(error)}`);
    return 1;
  })
  .then(exitWith);
