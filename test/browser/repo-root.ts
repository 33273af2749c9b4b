import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The repository's folder, found from the working directory: tests also run as ES modules,
 * where `__dirname` does not exist.
 */
export function repoRoot(dir = process.cwd()): string {
  if (existsSync(join(dir, 'libs', 'contracts', 'src', 'index.ts'))) return dir;
  const parent = dirname(dir);
  if (parent === dir) throw new Error('run the tests from inside the repository');
  return repoRoot(parent);
}
