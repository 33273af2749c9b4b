// `npm run sql:queries`: writes apps/api/src/layout/queries/*.sql from the repositories' code
// (see query-files.ts). Review the diff it makes with the change that made it.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { committedQueryFiles, QUERIES_DIR, renderQueryFiles } from './query-files';

const files = renderQueryFiles();
mkdirSync(QUERIES_DIR, { recursive: true });
for (const stale of committedQueryFiles()) {
  if (!files.has(stale)) rmSync(join(QUERIES_DIR, stale));
}
for (const [name, text] of files) writeFileSync(join(QUERIES_DIR, name), text);
console.log(`Wrote ${files.size} query files to ${relative(process.cwd(), QUERIES_DIR)}`);
