import { DUPLICATE_NODES_MAX } from '../libs/contracts/src/limits';
import { call, expectCall, idOf } from './http';
import { type ServerProcess } from './processes';
import { sampleUsage } from './proc-stats';
import { type TimedSeries } from './timed-series';

/** The project copied: 10 blocks × 10 rows × 4 columns (size 3) × 48 texts. */
export const COPIED_SHAPE = { blocks: 10, rows: 10, columns: 4, contents: 48 } as const;
/** Copies timed, one after another. */
export const COPIES = 5;

/** The copies of a project of COPIED_SHAPE, timed one after another. */
export interface ProjectCopyResult extends TimedSeries {
  /** How long building it through the API took. */
  buildSeconds: number;
}

const TEXT = `<p>${'A proposal paragraph, copied. '.repeat(3)}</p>`;

/**
 * `project-copy` (the service alone): a project of COPIED_SHAPE, just under the 20 000 nodes one
 * copy may make, built through the API (a column with its contents per request), then copied
 * COPIES times, one after another, each timed from request to answer, with the service's peak
 * RSS sampled meanwhile. The copies are deleted afterwards.
 */
export async function measureProjectCopy(
  server: ServerProcess,
  token: string,
  dbpid: number | undefined,
  log: (message: string) => void,
): Promise<ProjectCopyResult> {
  const { url } = server;
  const post = async (path: string, body: object) =>
    idOf(await expectCall(201, url, 'POST', path, { token, body }));
  const startedBuilding = performance.now();
  const project = `/projects/${await post('/projects', { title: 'Copied whole' })}`;
  const contents = Array.from({ length: COPIED_SHAPE.contents }, () => ({
    type: 'text',
    data: { html: TEXT },
  }));
  for (let b = 0; b < COPIED_SHAPE.blocks; b++) {
    const block = `${project}/blocks/${await post(`${project}/blocks`, { description: `b${b}` })}`;
    for (let r = 0; r < COPIED_SHAPE.rows; r++) {
      const row = `${block}/rows/${await post(`${block}/rows`, {})}`;
      for (let c = 0; c < COPIED_SHAPE.columns; c++) {
        await post(`${row}/columns`, { size: 3, contents });
      }
    }
  }
  const buildSeconds = (performance.now() - startedBuilding) / 1000;
  const original = await fetch(`${url}${project}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const bytes = (await original.arrayBuffer()).byteLength;
  const nodes =
    1 +
    COPIED_SHAPE.blocks *
      (1 + COPIED_SHAPE.rows * (1 + COPIED_SHAPE.columns * (1 + COPIED_SHAPE.contents)));
  if (nodes > DUPLICATE_NODES_MAX) throw new Error(`${nodes} nodes: more than one copy may make`);
  log(
    `  built ${nodes} nodes (${(bytes / 1024 / 1024).toFixed(1)} MiB) in ${buildSeconds.toFixed(1)} s`,
  );

  const before = sampleUsage(server.pid, dbpid)(1);
  const usage = sampleUsage(server.pid, dbpid);
  const startedCopying = performance.now();
  const seconds: number[] = [];
  const statuses: number[] = [];
  const copies: string[] = [];
  for (let i = 0; i < COPIES; i++) {
    const t0 = performance.now();
    const copy = await call(url, 'POST', `${project}/duplicate`, { token, body: {} });
    seconds.push((performance.now() - t0) / 1000);
    statuses.push(copy.status);
    if (copy.location) copies.push(copy.location);
    log(`  copy ${i + 1}: ${copy.status} in ${seconds.at(-1)?.toFixed(2)} s`);
  }
  const used = usage((performance.now() - startedCopying) / 1000);
  for (const copy of [...copies, project]) await call(url, 'DELETE', copy, { token });
  return {
    nodes,
    bytes,
    buildSeconds,
    seconds,
    statuses,
    rssMB: used.rssMB,
    rssBeforeMB: before.rssMB,
    cpuPct: used.cpuPct,
    dbCpuPct: used.dbCpuPct,
  };
}
