#!/usr/bin/env bash
# Checks libs/contracts as another team gets it: builds the library with its own tsconfig,
# packs it with npm, installs the tarball into a throwaway strict TypeScript project together
# with class-validator and class-transformer from the registry, each at the newest version its
# peer range allows (and nothing else: no reflect-metadata), type-checks that project with the
# repository's TypeScript, and runs it.
# Exits non-zero on any failure; temporary folders are removed either way.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
lib=$root/libs/contracts
tsc=$root/node_modules/.bin/tsc

work=$(mktemp -d "${TMPDIR:-/tmp}/contracts-package.XXXXXX")
trap 'rm -rf "$work"' EXIT
step() { printf '[contracts] %s\n' "$*"; }
fail() { printf '[contracts] FAILED: %s\n' "$*" >&2; exit 1; }

step "build (libs/contracts/tsconfig.lib.json -> dist, tsconfig.esm.json -> dist/esm)"
rm -rf "$lib/dist"
"$tsc" -p "$lib/tsconfig.lib.json"
"$tsc" -p "$lib/tsconfig.esm.json"

step "pack"
mkdir "$work/pack"
# The library was just built: skip its prepack (which would build it again).
tarball_name=$(cd "$lib" && npm pack --ignore-scripts --silent --pack-destination "$work/pack")
tarball=$work/pack/$tarball_name
[ -f "$tarball" ] || fail "npm pack did not produce $tarball"

step "tarball contents"
mkdir "$work/unpacked"
tar -xzf "$tarball" -C "$work/unpacked"
node - "$work/unpacked/package" <<'EOF'
// What a consumer downloads: a manifest that points at files that exist, only the build, and
// code that needs nothing but class-validator and class-transformer (no Node built-ins, no
// reflect-metadata, no decorator metadata).
const fs = require('node:fs');
const path = require('node:path');
const dir = process.argv[2];
const problems = [];
const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
const allowed = ['class-transformer', 'class-validator'];
if (manifest.name !== '@proposal-layout/contracts') problems.push(`name is ${manifest.name}`);
if (manifest.sideEffects !== false) problems.push('sideEffects is not false');
const deps = { ...manifest.dependencies, ...manifest.peerDependencies };
if (Object.keys(deps).sort().join() !== allowed.join()) {
  problems.push(`depends on ${Object.keys(deps).join(', ')}; expected ${allowed.join(', ')}`);
}
const entry = manifest.exports?.['.'] ?? {};
for (const target of [
  manifest.main,
  manifest.module,
  manifest.types,
  entry.types,
  entry.module,
  entry.default,
]) {
  if (!target || !fs.existsSync(path.join(dir, target))) problems.push(`missing ${target}`);
}
const files = [];
const walk = (d) =>
  fs.readdirSync(d, { withFileTypes: true }).forEach((e) => {
    const p = path.join(d, e.name);
    if (e.isDirectory()) walk(p);
    else files.push(path.relative(dir, p));
  });
walk(dir);
for (const file of files) {
  const ok =
    ['package.json', 'README.md'].includes(file) || /^dist\/.*(\.d\.ts|\.js)$/.test(file);
  if (!ok || /\.spec\./.test(file)) problems.push(`unexpected file in the package: ${file}`);
  if (!file.endsWith('.js')) continue;
  const code = fs.readFileSync(path.join(dir, file), 'utf8');
  if (/__metadata\(|Reflect\.(getMetadata|metadata)\b/.test(code)) {
    problems.push(`${file} uses decorator metadata (would need reflect-metadata)`);
  }
  for (const match of code.matchAll(/require\("([^"]+)"\)|from '([^']+)'/g)) {
    const spec = match[1] ?? match[2];
    if (!spec.startsWith('.') && !allowed.includes(spec)) {
      problems.push(`${file} requires ${spec}`);
    }
  }
}
if (problems.length > 0) {
  console.error(problems.map((p) => `  - ${p}`).join('\n'));
  process.exit(1);
}
console.log(`[contracts] ${files.length} files, requires only ${allowed.join(' and ')}`);
EOF

step "throwaway consumer project"
consumer=$work/consumer
mkdir -p "$consumer/src"
cat >"$consumer/package.json" <<'EOF'
{ "name": "contracts-consumer", "version": "0.0.0", "private": true, "type": "commonjs" }
EOF
cat >"$consumer/tsconfig.json" <<'EOF'
{
  "compilerOptions": {
    "strict": true,
    "module": "nodenext",
    "moduleResolution": "nodenext",
    "target": "ES2022",
    "lib": ["ES2022", "DOM"],
    "types": [],
    "noUnusedLocals": true,
    "exactOptionalPropertyTypes": true,
    "rootDir": "src",
    "outDir": "dist"
  },
  "include": ["src"]
}
EOF
cat >"$consumer/src/consumer.ts" <<'EOF'
import { IsInt } from 'class-validator';
import {
  CONTENT_TYPES,
  COLUMN_SIZE_DETAIL,
  CreateColumnDto,
  DEFAULT_CONTENT_STYLE,
  PROBLEM_STATUSES,
  PROBLEM_TITLES,
  PROBLEM_TYPES,
  UpdateColumnDto,
  validateBody,
  type BodyValidationResult,
  type ColumnResponse,
  type ContentResponse,
  type ContentType,
  type FieldError,
  type ProblemDetailsResponse,
} from '@proposal-layout/contracts';

function check(condition: unknown, what: string): asserts condition {
  if (!condition) throw new Error(`consumer check failed: ${what}`);
}

async function main(): Promise<void> {
  check(
    typeof (Reflect as { getMetadata?: unknown }).getMetadata === 'undefined',
    'reflect-metadata must not be loaded',
  );

  // A good body: the string form of a size, as responses render it, becomes a number.
  const good: BodyValidationResult<CreateColumnDto> = await validateBody(CreateColumnDto, {
    size: '6',
  });
  check(good.ok, `{ size: "6" } is valid, got ${JSON.stringify(good.errors)}`);
  const size: number = good.value.size;
  check(good.value instanceof CreateColumnDto && size === 6, 'size "6" becomes 6');

  // A bad body: one error, pointing at the member.
  const bad = await validateBody(CreateColumnDto, { size: 13 });
  check(!bad.ok, '{ size: 13 } is invalid');
  const errors: FieldError[] = bad.errors;
  check(
    errors.length === 1 && errors[0]?.pointer === '/size' && errors[0].detail === COLUMN_SIZE_DETAIL,
    `{ size: 13 } is reported at /size, got ${JSON.stringify(errors)}`,
  );
  const unknown = await validateBody(UpdateColumnDto, { size: 4, colour: 'red' });
  check(!unknown.ok && unknown.errors.some((e) => e.pointer === '/colour'), 'unknown members');

  // Each class's rules are kept once looked up, inside class-validator: validated again, a body
  // meets the same rules, and a class given a rule afterwards (a decorator applied at run time)
  // is checked by it.
  const again = await validateBody(CreateColumnDto, { size: 13 });
  check(!again.ok && again.errors[0]?.pointer === '/size', 'the rules of a class validated before');
  class Later {
    count?: unknown;
  }
  const before = await validateBody(Later, { count: 'many' });
  check(!before.ok, 'a member without a rule is unknown');
  IsInt()(Later.prototype, 'count');
  const after = await validateBody(Later, { count: 'many' });
  check(
    !after.ok && after.errors.length === 1 && after.errors[0]?.pointer === '/count',
    `a rule added later is checked, got ${JSON.stringify(after.errors)}`,
  );
  check((await validateBody(Later, { count: 3 })).ok, 'and passes a body that meets it');

  // Response types and constants, used as a client would.
  const type: ContentType = CONTENT_TYPES[1];
  const content: ContentResponse = { _id: 'c', type, style: { ...DEFAULT_CONTENT_STYLE }, data: {} };
  const column: ColumnResponse = { _id: 'k', size: String(size), contents: [content] };
  const problem: ProblemDetailsResponse = {
    type: PROBLEM_TYPES.validation,
    title: PROBLEM_TITLES[PROBLEM_TYPES.validation],
    status: PROBLEM_STATUSES[PROBLEM_TYPES.validation],
    errors,
  };
  check(column.contents[0]?.style.backgroundRepeat === 'no-repeat', 'DEFAULT_CONTENT_STYLE');
  check(problem.status === 400 && problem.type === '/problems/validation', 'PROBLEM_TYPES');

  // The declarations are precise, not `any`: each of these must be a type error.
  // @ts-expect-error size is a number on the DTO
  const notASize: CreateColumnDto = { size: 'six' };
  // @ts-expect-error not a content type
  const notAType: ContentType = 'table';
  // @ts-expect-error PROBLEM_TYPES is closed
  const notAProblem: string = PROBLEM_TYPES.teapot;
  void [notASize, notAType, notAProblem];

  console.log('consumer: valid and invalid column bodies validated as the server does');
}

main().catch((error: unknown) => {
  console.error(error);
  throw error;
});
EOF

# The package README's TypeScript examples must compile against the package too.
node - "$work/unpacked/package/README.md" "$consumer/src" <<'EOF'
const fs = require('node:fs');
const [readme, dir] = process.argv.slice(2);
const blocks = [...fs.readFileSync(readme, 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)];
if (blocks.length === 0) throw new Error('the package README has no ts example');
blocks.forEach(([, code], i) => fs.writeFileSync(`${dir}/readme-example-${i + 1}.ts`, code));
console.log(`[contracts] ${blocks.length} README example(s) added to the consumer`);
EOF

step "install the tarball, and class-validator and class-transformer at the newest their peer ranges allow"
# The library keeps rules looked up inside class-validator's metadata storage
# (rule-lookup-cache.ts): whatever version its range admits must pass the consumer's checks.
peer_range() { node -p "require('$lib/package.json').peerDependencies['$1']"; }
(cd "$consumer" && npm install --no-audit --no-fund --ignore-scripts --strict-peer-deps \
  --loglevel=error "$tarball" "class-validator@$(peer_range class-validator)" \
  "class-transformer@$(peer_range class-transformer)")
[ ! -e "$consumer/node_modules/reflect-metadata" ] || fail "reflect-metadata got installed"
installed_version() { node -p "require('$consumer/node_modules/$1/package.json').version"; }
step "installed class-validator $(installed_version class-validator), class-transformer $(installed_version class-transformer)"

step "type-check (strict, node resolution) and compile"
"$tsc" -p "$consumer/tsconfig.json"
step "type-check (bundler resolution, as a browser app would)"
"$tsc" -p "$consumer/tsconfig.json" --noEmit --module esnext --moduleResolution bundler

step "run the compiled consumer (CommonJS)"
(cd "$consumer" && node dist/consumer.js)

step "import from an ES module"
(cd "$consumer" && node --input-type=module -e "
import { CreateColumnDto, validateBody } from '@proposal-layout/contracts';
const good = await validateBody(CreateColumnDto, { size: 6 });
const bad = await validateBody(CreateColumnDto, { size: 13 });
if (!good.ok || bad.ok || bad.errors[0].pointer !== '/size') throw new Error('ESM import');
console.log('esm consumer: ok');
")

step "bundle a column-body form for the browser, as a single-page app's bundler would"
# esbuild from the repository, resolving from the consumer's installed packages: the ES module
# build (the `module` condition, which bundlers use) against the CommonJS one.
cat >"$consumer/form.js" <<'EOF'
import { CreateColumnDto, validateBody } from '@proposal-layout/contracts';
export async function checkColumnBody(body) {
  const result = await validateBody(CreateColumnDto, body);
  return result.ok ? [] : result.errors;
}
EOF
(cd "$consumer" && node - "$root" <<'EOF'
const { buildSync } = require(`${process.argv[2]}/node_modules/esbuild`);
const { gzipSync } = require('node:zlib');
// A regression guard for the tree-shaken bundle: a few tens of KB today.
const BUDGET_BYTES = 100 * 1024;
const bundle = (extra) =>
  buildSync({
    entryPoints: ['form.js'],
    bundle: true,
    minify: true,
    write: false,
    platform: 'browser',
    format: 'esm',
    logLevel: 'error',
    ...extra,
  }).outputFiles[0].contents;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const esm = bundle({});
const cjs = bundle({ conditions: [], mainFields: ['main'] });
console.log(
  `[contracts] column-body form, minified: ES module build ${kb(esm.length)} ` +
    `(${kb(gzipSync(esm).length)} gzipped); CommonJS build ${kb(cjs.length)} ` +
    `(${kb(gzipSync(cjs).length)} gzipped)`,
);
if (esm.length > BUDGET_BYTES) {
  throw new Error(`the ES module bundle is ${kb(esm.length)}, over its ${kb(BUDGET_BYTES)} budget`);
}
EOF
)

step "ok: $tarball_name"
