import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';

/**
 * The folders' rule, as the README's map says it: the shared ground (common, openapi, config,
 * the database's runtime) imports no feature, and no two folders import each other. Read from
 * the code's own imports, specs included, so that a file put in the wrong room fails here.
 */
const SOURCE = __dirname;
const GROUND = new Set(['common', 'openapi', 'config', 'database', 'generated']);
/** What the database's runtime stands on: its server, its process, its notifications. */
const BENEATH_GROUND = new Set(['database-server', 'embedded-postgres', 'notifications']);

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The top folder of a path under the source root ('' for a file at the root). */
function folderOf(path: string): string {
  const parts = relative(SOURCE, path).split(sep);
  return parts.length > 1 ? parts[0] : '';
}

/** Every (importing folder, imported folder) pair, with one file that makes it. */
function folderImports(): Map<string, string> {
  const pairs = new Map<string, string>();
  for (const file of sourceFiles(SOURCE)) {
    const from = folderOf(file);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/from '(\.{1,2}\/[^']*)'/g)) {
      const to = folderOf(normalize(join(dirname(file), specifier)));
      if (from !== '' && to !== '' && from !== to) {
        pairs.set(`${from} -> ${to}`, relative(SOURCE, file));
      }
    }
  }
  return pairs;
}

describe('the folders of apps/api/src', () => {
  const pairs = folderImports();

  it('reads the imports it judges (a feature uses the shared ground)', () => {
    expect(pairs.has('layout -> database')).toBe(true);
    expect(pairs.has('accounts -> common')).toBe(true);
  });

  it('the shared ground imports no feature (nor the entry points above them)', () => {
    const wrong = [...pairs].filter(([pair]) => {
      const [from, to] = pair.split(' -> ');
      return GROUND.has(from) && !GROUND.has(to) && !BENEATH_GROUND.has(to);
    });
    expect(wrong).toEqual([]);
  });

  it('no two folders import each other', () => {
    const both = [...pairs.keys()].filter((pair) => {
      const [from, to] = pair.split(' -> ');
      return from < to && pairs.has(`${to} -> ${from}`);
    });
    expect(both.map((pair) => [pair, pairs.get(pair)])).toEqual([]);
  });
});
