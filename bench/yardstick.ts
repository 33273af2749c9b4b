import { createHash } from 'node:crypto';
import { cp, readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { PROJECTS } from './config';
import { runTool } from './processes';
import { inheritedEnv } from './servers';

/**
 * The yardstick, used as it is: its folder copied to the run's temp folder (never written in
 * place), its packages installed there with `npm ci`, and its own tools run from the copy:
 * seed.mjs for both sides' data and targets, load.mjs as the load driver for both servers.
 */
export interface YardstickCopy {
  dir: string;
  /** sha256 over the copied files (names and contents), to tell which yardstick was used. */
  hash: string;
  packages: Record<string, string>;
}

const SKIP = new Set(['node_modules', 'results', 'targets.json', 'tree.sql']);

export async function installYardstick(source: string, tempDir: string): Promise<YardstickCopy> {
  const dir = join(tempDir, 'yardstick');
  await cp(source, dir, {
    recursive: true,
    filter: (path) => !SKIP.has(relative(source, path).split('/')[0]),
  });
  await runTool('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, env: inheritedEnv() });
  const packages: Record<string, string> = {};
  for (const name of ['fastify', 'pg', 'autocannon']) {
    const manifest = await readFile(join(dir, 'node_modules', name, 'package.json'), 'utf8');
    packages[name] = (JSON.parse(manifest) as { version: string }).version;
  }
  return { dir, hash: await hashFiles(dir), packages };
}

async function hashFiles(dir: string): Promise<string> {
  const hash = createHash('sha256');
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .filter((path) => !SKIP.has(path.split('/')[0]))
    .sort();
  for (const file of files) hash.update(`${file}\0`).update(await readFile(join(dir, file)));
  return hash.digest('hex').slice(0, 12);
}

const node = (copy: YardstickCopy, args: string[], env: NodeJS.ProcessEnv = {}) =>
  runTool(process.execPath, args, { cwd: copy.dir, env: { ...inheritedEnv(), ...env } });

/** `seed.mjs --reset --projects 20` on the yardstick's own database. */
export function seedYardstick(copy: YardstickCopy, databaseUrl: string, out: string) {
  return node(copy, ['seed.mjs', '--reset', '--projects', String(PROJECTS), '--out', out], {
    DATABASE_URL: databaseUrl,
  });
}

/** `seed.mjs --api`: the same shape and targets, through the service's API. */
export function seedThroughApi(copy: YardstickCopy, serviceUrl: string, out: string) {
  return node(copy, [
    'seed.mjs',
    '--api',
    serviceUrl,
    '--projects',
    String(PROJECTS),
    '--out',
    out,
  ]);
}

/** `seed.mjs --projects 0 --contents N`: other accounts' data, topped up to N contents. */
export async function growYardstick(copy: YardstickCopy, databaseUrl: string, contents: number) {
  const output = await node(
    copy,
    ['seed.mjs', '--projects', '0', '--contents', String(contents), '--out', 'unused.json'],
    { DATABASE_URL: databaseUrl },
  );
  const match = /contents: (\d+)/.exec(output);
  return { contents: match ? Number(match[1]) : NaN, output };
}

/** One line of load.mjs's --json output. */
export interface LoadLine {
  scenario: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  rssMB: number | null;
  cpuPct: number | null;
  dbCpuPct: number | null;
  driverCpuPct: number;
}

export interface LoadRun {
  url: string;
  targetsFile: string;
  scenario: string;
  duration: number;
  warmup: number;
  connections: number;
  pid: number;
  /** A file of its own for this run's JSONL. */
  jsonFile: string;
}

/** One load.mjs run of one scenario; its JSONL line. */
export async function runLoad(copy: YardstickCopy, run: LoadRun): Promise<LoadLine> {
  const args = [
    'load.mjs',
    run.url,
    run.targetsFile,
    '--scenarios',
    run.scenario,
    '--duration',
    String(run.duration),
    '--warmup',
    String(run.warmup),
    '--connections',
    String(run.connections),
    '--pid',
    String(run.pid),
    '--json',
    run.jsonFile,
  ];
  await node(copy, args);
  const lines = (await readFile(run.jsonFile, 'utf8')).trim().split('\n');
  const line = JSON.parse(lines[lines.length - 1]) as LoadLine;
  if (line.scenario !== run.scenario) throw new Error(`${run.jsonFile}: not ${run.scenario}`);
  return line;
}
