import { join } from 'node:path';
import { interrupted } from './cleanup';
import { databaseTicks } from './proc-stats';
import { measureCompressed } from './compressed';
import { measureConditional } from './conditional';
import { measureAssets, measureRender, measureShared } from './publishing';
import { type LoadSettings } from './tree-reads';
import {
  EDITS,
  type EditScenario,
  isEdit,
  isEditorRead,
  loadScenarioOf,
  type PairedScenario,
  type ScenarioName,
  WRITES,
} from './config';
import {
  measureCopies,
  measureMoves,
  prepareCopies,
  prepareMoves,
  prepareMovesMany,
} from './edits';
import {
  deleteImported,
  type ImportExtras,
  type ImportTargets,
  measureImports,
  measureWholeTree,
  prepareImports,
} from './imports';
import { type Servers } from './servers';
import { type Targets, writeTargets } from './targets';
import { createWriteProject } from './write-project';
import { type LoadLine, runLoad, type YardstickCopy } from './yardstick';

/** One server's numbers for one scenario, as load.mjs reports them. */
export interface Side extends LoadLine {
  /** Non-2xx answers and errors of a write scenario's separate warm-up run (not measured). */
  warmupFailures: number;
}

export interface ScenarioResult {
  scenario: ScenarioName;
  /** A string says why the scenario could not run against the service (conditional). */
  service: Side | string;
  /** Absent for conditional: it is compared with the yardstick's (unconditional) tree. */
  yardstick?: Side;
  /** assets: how far ten 10 MiB uploads at once raised the service's peak RSS, MiB. */
  uploadRssRiseMiB?: number;
  /** import: how its load was spread, what it made, and the tree of about 20 000 nodes. */
  imports?: ImportExtras;
}

export interface BenchContext {
  copy: YardstickCopy;
  /** Replaced when the servers restart (after each growth step). */
  servers: Servers;
  serviceTargets: Targets;
  serviceTargetsFile: string;
  /**
   * The service's targets with an editor's token, an editor of the read projects who does not
   * own them: made on first use (the editor's reads).
   */
  editorTargetsFile: () => Promise<string>;
  yardstickTargetsFile: string;
  dbpid: number | undefined;
  settings: LoadSettings;
  tempDir: string;
  log: (message: string) => void;
}

let runs = 0;

/** One scenario, the two servers in turn, slice by slice, so that both meet the same machine load. */
export async function measureScenario(
  ctx: BenchContext,
  scenario: PairedScenario,
): Promise<ScenarioResult> {
  if (scenario === 'compressed') {
    ctx.log(`${scenario}: service`);
    const line = await measureCompressed(
      ctx.servers.service,
      ctx.serviceTargets,
      ctx.settings,
      ctx.dbpid,
    );
    ctx.log(
      `  ${line.rps} req/s, p99 ${line.p99} ms, ${line.non2xx} not 200, ${line.errors} errors`,
    );
    return { scenario, service: toSide(line) };
  }
  if (scenario === 'render' || scenario === 'shared' || scenario === 'assets') {
    ctx.log(`${scenario}: service`);
    const args = [ctx.servers.service, ctx.serviceTargets, ctx.settings, ctx.dbpid] as const;
    if (scenario !== 'assets') {
      const line = await (scenario === 'render' ? measureRender : measureShared)(...args);
      ctx.log(`  ${line.rps} req/s, p99 ${line.p99} ms, ${line.non2xx} not 200`);
      return { scenario, service: toSide(line) };
    }
    const assets = await measureAssets(...args);
    ctx.log(
      `  ${assets.line.rps} req/s, p99 ${assets.line.p99} ms; ten 10 MiB uploads raised RSS ` +
        `${assets.uploadRssRiseMiB} MiB (${assets.uploadFailures} failed)`,
    );
    const service = toSide(assets.line);
    return {
      scenario,
      service: { ...service, errors: service.errors + assets.uploadFailures },
      uploadRssRiseMiB: assets.uploadRssRiseMiB,
    };
  }
  if (scenario === 'conditional') {
    ctx.log(`${scenario}: service`);
    const { service } = ctx.servers;
    const result = await measureConditional(service, ctx.serviceTargets, ctx.settings, ctx.dbpid);
    ctx.log(
      result.available
        ? `  ${result.line.rps} req/s, p99 ${result.line.p99} ms, ${result.line.non2xx} not 304, ${result.line.errors} errors`
        : `  conditional: ${result.reason}`,
    );
    return { scenario, service: result.available ? toSide(result.line) : result.reason };
  }
  if (isEdit(scenario)) return measureEdit(ctx, scenario);
  const { duration, warmup, connections } = ctx.settings;
  const slices = slicesOf(scenario, duration);
  const plans = {
    service: await slicePlan(ctx, 'service', scenario, slices.length),
    yardstick: await slicePlan(ctx, 'yardstick', scenario, slices.length),
  };
  const lines: Record<keyof Servers, LoadLine[]> = { service: [], yardstick: [] };
  const warmupFailures = { service: 0, yardstick: 0 };
  for (const [i, seconds] of slices.entries()) {
    for (const side of SIDES) {
      const plan = plans[side];
      ctx.log(
        `${scenario}: ${side}${slices.length > 1 ? `, slice ${i + 1}/${slices.length}` : ''}`,
      );
      // Each side warms up once, before its first slice: a write scenario in a run of its own
      // (discarded, in its own project for the service), a read in load.mjs's own warm-up.
      if (i === 0 && warmup > 0 && plan.warmupFile !== undefined) {
        const line = await load(ctx, side, scenario, plan.warmupFile, {
          duration: warmup,
          warmup: 0,
          connections,
        });
        warmupFailures[side] = line.non2xx + line.errors;
      }
      const line = await load(ctx, side, scenario, plan.sliceFiles[i], {
        duration: seconds,
        warmup: i === 0 && plan.warmupFile === undefined ? warmup : 0,
        connections,
      });
      if (slices.length > 1) ctx.log(`  ${line.rps} req/s, p99 ${line.p99} ms`);
      lines[side].push(line);
    }
  }
  const service = { ...combineSlices(lines.service), warmupFailures: warmupFailures.service };
  const yardstick = { ...combineSlices(lines.yardstick), warmupFailures: warmupFailures.yardstick };
  ctx.log(
    `  ${service.rps} vs ${yardstick.rps} req/s, p99 ${service.p99} vs ${yardstick.p99} ms` +
      (service.non2xx + service.errors + yardstick.non2xx + yardstick.errors > 0
        ? `; NON-2XX/ERRORS ${service.non2xx}/${service.errors} vs ${yardstick.non2xx}/${yardstick.errors}`
        : ''),
  );
  return { scenario, service, yardstick };
}

const SIDES = ['service', 'yardstick'] as const;

/** Write projects a duplicate slice's copies spread over (each far from 500 blocks, 8 MiB). */
const COPY_PROJECTS = 6;

/**
 * `move`, `move-many`, `duplicate` and `import`: the service runs the bench's own driver
 * (edits.ts, imports.ts), the yardstick load.mjs's scenario that each is set beside (EDITS),
 * slice by slice in turn as the paired scenarios are. The service's targets (fresh write
 * projects) are all made before the first slice; each side warms up once, on targets of its own.
 * The imports share their accounts (one per connection) over all their runs; after the last
 * slice, a tree of about 20 000 nodes is posted whole, timed, and every project they made is
 * deleted.
 */
async function measureEdit(ctx: BenchContext, scenario: EditScenario): Promise<ScenarioResult> {
  const { duration, warmup, connections } = ctx.settings;
  const { service } = ctx.servers;
  const slices = slicesOf(scenario, duration);
  const { token } = ctx.serviceTargets;
  const settings = (seconds: number) => ({ duration: seconds, warmup: 0, connections });
  const imports =
    scenario === 'import'
      ? await prepareImports(service.url, token, ctx.serviceTargets.projects[0], connections)
      : undefined;
  const made = imports?.tokens.map(() => 0) ?? [];
  /** Targets of their own for one run, and that run on them. */
  const prepare = async (): Promise<(seconds: number) => Promise<LoadLine>> => {
    if (scenario === 'import') {
      const targets = imports as ImportTargets;
      return (seconds) => measureImports(service, targets, made, settings(seconds), ctx.dbpid);
    }
    if (scenario === 'duplicate') {
      const copies = await prepareCopies(service.url, token, COPY_PROJECTS);
      return (seconds) => measureCopies(service, copies, settings(seconds), ctx.dbpid);
    }
    const spread = scenario === 'move' ? prepareMoves : prepareMovesMany;
    const moves = await spread(service.url, token, connections);
    return (seconds) => measureMoves(service, scenario, moves, settings(seconds), ctx.dbpid);
  };
  ctx.log(
    imports
      ? `${scenario}: ${imports.tokens.length} accounts, the seed's project (${imports.contents} contents)`
      : `${scenario}: preparing ${slices.length + (warmup > 0 ? 1 : 0)} sets of targets`,
  );
  const warmupRun = warmup > 0 ? await prepare() : undefined;
  const sliceRuns = [];
  for (let i = 0; i < slices.length; i++) sliceRuns.push(await prepare());
  const reference = EDITS[scenario];
  const lines: Record<keyof Servers, LoadLine[]> = { service: [], yardstick: [] };
  const warmupFailures = { service: 0, yardstick: 0 };
  for (const [i, seconds] of slices.entries()) {
    ctx.log(`${scenario}: service, slice ${i + 1}/${slices.length}`);
    if (i === 0 && warmupRun !== undefined) {
      const line = await warmupRun(warmup);
      warmupFailures.service = line.non2xx + line.errors;
    }
    const line = await sliceRuns[i](seconds);
    if (interrupted()) throw new Error('interrupted');
    ctx.log(`  ${line.rps} req/s, p99 ${line.p99} ms`);
    lines.service.push(line);
    ctx.log(`${scenario}: yardstick ${reference}, slice ${i + 1}/${slices.length}`);
    if (i === 0 && warmup > 0) {
      const warm = await load(ctx, 'yardstick', reference, ctx.yardstickTargetsFile, {
        duration: warmup,
        warmup: 0,
        connections,
      });
      warmupFailures.yardstick = warm.non2xx + warm.errors;
    }
    lines.yardstick.push(
      await load(ctx, 'yardstick', reference, ctx.yardstickTargetsFile, {
        duration: seconds,
        warmup: 0,
        connections,
      }),
    );
  }
  const serviceSide = { ...combineSlices(lines.service), warmupFailures: warmupFailures.service };
  const yardstick = {
    ...combineSlices(lines.yardstick),
    warmupFailures: warmupFailures.yardstick,
  };
  ctx.log(
    `  ${serviceSide.rps} vs ${yardstick.rps} req/s (${reference}), p99 ${serviceSide.p99} vs ${yardstick.p99} ms`,
  );
  if (!imports) return { scenario, service: serviceSide, yardstick };
  const wholeTree = await measureWholeTree(service, imports.tokens[0], ctx.dbpid, ctx.log);
  const total = made.reduce((sum, n) => sum + n, 0);
  ctx.log(`  deleting the ${total + wholeTree.statuses.length} projects the imports made`);
  const deleted = await deleteImported(service.url, imports.tokens);
  return {
    scenario,
    service: serviceSide,
    yardstick,
    imports: {
      accounts: imports.tokens.length,
      bodyBytes: Buffer.byteLength(imports.body),
      contents: imports.contents,
      made: total,
      deleted,
      wholeTree,
    },
  };
}

/**
 * The seconds of one measured create slice at most. The service caps a project at 8 MiB of JSON
 * (about 15 000 of load.mjs's contents), a limit the yardstick does not have; at the fastest
 * create rate either server has reached here, a slice this long fills a fresh project to about
 * half of it.
 */
const CREATE_SLICE_SECONDS = 2.5;

/**
 * How a paired scenario's measured time is cut into equal slices, which the two servers take in
 * turn (service, yardstick, service, ...): this machine's speed drifts within seconds, and a
 * drift then meets both sides instead of one. Create is cut finer (CREATE_SLICE_SECONDS).
 */
export function slicesOf(scenario: ScenarioName, duration: number): number[] {
  const fine = scenario === 'create' || scenario === 'duplicate';
  const count = Math.max(2, fine ? Math.ceil(duration / CREATE_SLICE_SECONDS) : 2);
  return Array.from({ length: count }, () => duration / count);
}

/** The targets files of one side's runs of a scenario. */
interface SlicePlan {
  /** A write scenario's separate warm-up run; reads warm up in load.mjs's first run. */
  warmupFile: string | undefined;
  sliceFiles: string[];
}

/**
 * Reads use the side's targets throughout, and so do the yardstick's writes (its one write
 * project). The service's limits (1 000 contents per column, 8 MiB per project) would stop a long
 * create run in one project: its warm-up and each slice of a write scenario get a fresh write
 * project, all created through the API before the scenario starts (so that creating one does not
 * sit between two runs).
 */
async function slicePlan(
  ctx: BenchContext,
  side: keyof Servers,
  scenario: ScenarioName,
  count: number,
): Promise<SlicePlan> {
  const targetsFile =
    side === 'yardstick'
      ? ctx.yardstickTargetsFile
      : isEditorRead(scenario)
        ? await ctx.editorTargetsFile()
        : ctx.serviceTargetsFile;
  const writes = WRITES.has(scenario);
  const warmupFile = writes && ctx.settings.warmup > 0 ? targetsFile : undefined;
  if (!writes || side === 'yardstick') {
    return { warmupFile, sliceFiles: Array.from({ length: count }, () => targetsFile) };
  }
  const files: string[] = [];
  const phases = Array.from({ length: count }, (_, i) => `slice-${i + 1}`);
  for (const phase of warmupFile === undefined ? phases : ['warmup', ...phases]) {
    const write = await createWriteProject(ctx.servers.service.url, ctx.serviceTargets.token);
    const file = join(ctx.tempDir, `service-targets-${++runs}-${scenario}-${phase}.json`);
    await writeTargets(file, { ...ctx.serviceTargets, write });
    files.push(file);
  }
  return warmupFile === undefined
    ? { warmupFile, sliceFiles: files }
    : { warmupFile: files[0], sliceFiles: files.slice(1) };
}

/**
 * Equal slices as one run: their mean rate and CPU, their summed failures, and their worst
 * latencies and memory (the percentiles of the whole cannot be rebuilt from the parts; the worst
 * part's never flatters).
 */
export function combineSlices(lines: LoadLine[]): LoadLine {
  if (lines.length === 1) return lines[0];
  const mean = (pick: (line: LoadLine) => number) =>
    Math.round(lines.reduce((sum, line) => sum + pick(line), 0) / lines.length);
  const max = (pick: (line: LoadLine) => number) => Math.max(...lines.map(pick));
  const sum = (pick: (line: LoadLine) => number) => lines.reduce((s, line) => s + pick(line), 0);
  const maybe = (pick: (line: LoadLine) => number | null, combine: typeof mean) =>
    lines.some((line) => pick(line) === null) ? null : combine((line) => pick(line) ?? 0);
  return {
    scenario: lines[0].scenario,
    rps: mean((line) => line.rps),
    p50: max((line) => line.p50),
    p99: max((line) => line.p99),
    non2xx: sum((line) => line.non2xx),
    errors: sum((line) => line.errors),
    rssMB: maybe((line) => line.rssMB, max),
    cpuPct: maybe((line) => line.cpuPct, mean),
    dbCpuPct: maybe((line) => line.dbCpuPct, mean),
    driverCpuPct: mean((line) => line.driverCpuPct),
  };
}

async function load(
  ctx: BenchContext,
  side: keyof Servers,
  scenario: ScenarioName,
  targetsFile: string,
  settings: LoadSettings,
): Promise<Side> {
  const server = ctx.servers[side];
  // The database's CPU is taken here, over the warm-up and the measured run alike (load.mjs's
  // own figure misses the backends that exit meanwhile; see databaseTicks).
  const db0 = ctx.dbpid === undefined ? 0 : databaseTicks(ctx.dbpid);
  const startedAt = performance.now();
  const line = await runLoad(ctx.copy, {
    url: server.url,
    targetsFile,
    scenario: loadScenarioOf(scenario),
    ...settings,
    pid: server.pid,
    jsonFile: join(ctx.tempDir, `load-${++runs}-${side}-${scenario}.jsonl`),
  });
  // A Ctrl-C stops the servers under a running load: what it measured then means nothing.
  if (interrupted()) throw new Error('interrupted');
  const seconds = (performance.now() - startedAt) / 1000;
  const dbCpuPct =
    ctx.dbpid === undefined ? null : Math.round((databaseTicks(ctx.dbpid) - db0) / seconds);
  return toSide({ ...line, dbCpuPct });
}

function toSide(line: LoadLine): Side {
  return { ...line, warmupFailures: 0 };
}
