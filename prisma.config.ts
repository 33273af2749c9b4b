import { defineConfig } from 'prisma/config';

// The Prisma CLI downloads a native schema engine before `generate`, `validate` and `format`
// although those commands never run it; without network access the download fails. Pointing
// the engine path at any existing file skips the download for exactly those commands. `migrate`
// needs the real engine, which is why migrations are applied and authored by scripts/migrations.
const OFFLINE_COMMANDS = new Set(['generate', 'validate', 'format']);
if (process.argv.some((arg) => OFFLINE_COMMANDS.has(arg))) {
  process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;
}

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
