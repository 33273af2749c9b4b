import { readFile, writeFile } from 'node:fs/promises';

/** The yardstick's targets file (seed.mjs `targets()`), which its load.mjs reads. */
export interface Targets {
  token: string;
  /** The read projects, which `tree` cycles through. */
  projects: string[];
  read: { project: string; block: string; row: string; column: string; content: string };
  write: WriteTargets;
}

export interface WriteTargets {
  project: string;
  block: string;
  row: string;
  createColumn: string;
  resizeColumn: string;
  sizes: number[];
  /** The write project's 42 columns outside the resize row, which `create` takes in turn. */
  createTargets: { block: string; row: string; column: string }[];
}

export async function readTargets(file: string): Promise<Targets> {
  return JSON.parse(await readFile(file, 'utf8')) as Targets;
}

export async function writeTargets(file: string, targets: Targets): Promise<void> {
  await writeFile(file, `${JSON.stringify(targets, null, 2)}\n`);
}

export const rowPath = (x: { project: string; block: string; row: string }) =>
  `/projects/${x.project}/blocks/${x.block}/rows/${x.row}`;
