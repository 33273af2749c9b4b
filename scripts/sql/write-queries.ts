// `npm run sql:queries`: writes each module's queries/*.sql from its repositories' code (see
// query-files.ts). Review the diff it makes with the change that made it.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { committedQueryFiles, QUERY_MODULES, renderQueryFiles } from './query-files';

for (const module of QUERY_MODULES) {
  const files = renderQueryFiles(module);
  mkdirSync(module.queries, { recursive: true });
  for (const stale of committedQueryFiles(module)) {
    if (!files.has(stale)) rmSync(join(module.queries, stale));
  }
  for (const [name, text] of files) writeFileSync(join(module.queries, name), text);
  console.log(`Wrote ${files.size} query files to ${relative(process.cwd(), module.queries)}`);
}
