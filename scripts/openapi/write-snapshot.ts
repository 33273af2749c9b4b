// `npm run openapi:snapshot` (= `npm run build && tsx scripts/openapi/write-snapshot.ts`):
// writes the OpenAPI document of the built service to openapi.json at the repository root, where
// it is committed so that reviews show every change to the HTTP interface. The e2e suite
// (test/openapi.e2e-spec.ts) fails when the document the application serves differs from it.
//
// The document comes from the build (dist/), not from these sources run through tsx: the build
// is what serves traffic, and esbuild (tsx) emits no decorator metadata, which the document
// needs. The application is created in Nest's preview mode: modules and routes without
// instantiating providers, so no database is started.
import { existsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { format, resolveConfig } from 'prettier';

const ROOT = resolve(__dirname, '../..');
const DIST = join(ROOT, 'dist/apps/api/src');
const SNAPSHOT = join(ROOT, 'openapi.json');

type AppModuleExports = typeof import('../../apps/api/src/app.module');
type ConfigExports = typeof import('../../apps/api/src/config/load-config');
type DocumentExports = typeof import('../../apps/api/src/openapi/document');
type NestCoreExports = typeof import('@nestjs/core');
type FastifyExports = typeof import('@nestjs/platform-fastify');

async function main() {
  const documentModule = join(DIST, 'openapi/document.js');
  if (!existsSync(documentModule)) {
    throw new Error(`${relative(ROOT, documentModule)} is missing: run \`npm run build\` first`);
  }
  // The built modules and the framework they were built against, loaded as the service loads them.
  const load = createRequire(join(DIST, 'main.js'));
  const { NestFactory } = load('@nestjs/core') as NestCoreExports;
  const { FastifyAdapter } = load('@nestjs/platform-fastify') as FastifyExports;
  const { AppModule } = load(join(DIST, 'app.module.js')) as AppModuleExports;
  const { loadConfig } = load(join(DIST, 'config/load-config.js')) as ConfigExports;
  const { buildOpenApiDocument } = load(documentModule) as DocumentExports;

  // The configuration does not shape the document; the defaults only have to be valid.
  const config = loadConfig({ LOG_LEVEL: 'silent' });
  const app = await NestFactory.create(AppModule.forRoot(config), new FastifyAdapter(), {
    preview: true,
    logger: false,
    abortOnError: false,
  });
  try {
    const document = await buildOpenApiDocument(app);
    const options = (await resolveConfig(SNAPSHOT)) ?? {};
    const text = await format(JSON.stringify(document), { ...options, parser: 'json' });
    writeFileSync(SNAPSHOT, text);
    const operations = Object.values(document.paths).flatMap((item) => Object.keys(item)).length;
    console.log(`Wrote ${relative(ROOT, SNAPSHOT)} (${operations} operations)`);
  } finally {
    await app.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
