// `npm run openapi:metadata` (also run by postinstall, prebuild and pretest): writes what the
// @nestjs/swagger CLI plugin knows about the DTOs and controllers to
// apps/api/src/generated/openapi-metadata.ts, the `metadata.ts` of NestJS's documented
// "plugin without the compiler step" setup. `nest build` runs the plugin inside the compiler, but
// Jest (ts-jest) does not; the app loads this file so that the tests serve the same document as
// the built service. Generated, never committed; skipped when its inputs have not changed.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type * as TypeScript from 'typescript';

const ROOT = resolve(__dirname, '../..');
const TSCONFIG = join(ROOT, 'apps/api/tsconfig.app.json');
const OUTPUT_DIR = join(ROOT, 'apps/api/src/generated');
const OUTPUT_FILE = 'openapi-metadata.ts';
const SOURCE_DIRS = ['apps/api/src', 'libs/contracts/src'];
const HASH_PREFIX = '// inputs: ';

/** The swagger plugin's options, exactly as `nest build` uses them (nest-cli.json). */
function pluginOptions(): Record<string, unknown> {
  const nestCli = JSON.parse(readFileSync(join(ROOT, 'nest-cli.json'), 'utf8')) as {
    compilerOptions?: { plugins?: Array<string | { name: string; options?: object }> };
  };
  const plugin = nestCli.compilerOptions?.plugins?.find(
    (entry) => (typeof entry === 'string' ? entry : entry.name) === '@nestjs/swagger',
  );
  if (plugin === undefined) throw new Error('nest-cli.json does not configure @nestjs/swagger');
  return typeof plugin === 'string' ? {} : { ...plugin.options };
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .filter((file) => !file.startsWith('apps/api/src/generated/') && !file.endsWith('.spec.ts'))
    .sort();
}

function versionOf(pkg: string): string {
  const manifest = JSON.parse(
    readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8'),
  ) as { version: string };
  return manifest.version;
}

function inputsHash(options: Record<string, unknown>): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify(options));
  hash.update(['@nestjs/swagger', '@nestjs/cli', 'typescript'].map(versionOf).join(' '));
  for (const file of SOURCE_DIRS.flatMap(sourceFiles)) {
    hash.update(`\0${file}\0`);
    hash.update(readFileSync(join(ROOT, file)));
  }
  return hash.digest('hex');
}

/**
 * The generator keeps path aliases (`import("@layout/contracts")`) as written; `nest build`
 * rewrites aliases only in import declarations, so the built file could not load them.
 */
function withoutPathAliases(ts: typeof TypeScript, source: string): string {
  const { config } = ts.readConfigFile(join(ROOT, 'tsconfig.json'), (path) =>
    ts.sys.readFile(path),
  ) as {
    config: { compilerOptions?: { paths?: Record<string, string[]> } };
  };
  let result = source;
  for (const [alias, [target]] of Object.entries(config.compilerOptions?.paths ?? {})) {
    if (alias.includes('*') || target === undefined) continue;
    let path = relative(OUTPUT_DIR, join(ROOT, target)).replace(/\\/g, '/');
    path = `${path.startsWith('.') ? '' : './'}${path.replace(/\.ts$/, '.js')}`;
    result = result.split(`import("${alias}")`).join(`import("${path}")`);
  }
  return result;
}

async function main() {
  const options = pluginOptions();
  const hash = inputsHash(options);
  const target = join(OUTPUT_DIR, OUTPUT_FILE);
  const force = process.argv.includes('--force');
  if (!force && existsSync(target) && readFileSync(target, 'utf8').includes(HASH_PREFIX + hash)) {
    return;
  }
  // Loaded only when there is work to do: they take seconds to load.
  const ts = await import('typescript');
  const { PluginMetadataGenerator } =
    await import('@nestjs/cli/lib/compiler/plugins/plugin-metadata-generator.js');
  const { ReadonlyVisitor } = await import('@nestjs/swagger/plugin');

  const parsed = ts.getParsedCommandLineOfConfigFile(
    TSCONFIG,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (parsed === undefined) throw new Error(`cannot read ${TSCONFIG}`);
  const program = ts.createProgram({
    rootNames: parsed.fileNames.filter((file) => !file.startsWith(OUTPUT_DIR)),
    options: { ...parsed.options, noEmit: true, incremental: false },
  });

  mkdirSync(OUTPUT_DIR, { recursive: true });
  new PluginMetadataGenerator().generate({
    // Import paths in the file are relative to where it is written.
    visitors: [new ReadonlyVisitor({ ...options, pathToSource: OUTPUT_DIR })],
    outputDir: OUTPUT_DIR,
    filename: OUTPUT_FILE,
    tsProgramRef: program,
    printDiagnostics: false,
  });

  const generated = readFileSync(target, 'utf8');
  const header =
    '// Generated by scripts/openapi/generate-metadata.ts (npm run openapi:metadata): do not edit\n' +
    `${HASH_PREFIX}${hash}\n`;
  writeFileSync(target, header + withoutPathAliases(ts, generated) + '\n');
  console.log(`Wrote ${relative(ROOT, target)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
