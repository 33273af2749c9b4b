/**
 * `npm run bench`: the service (its production build) against the yardstick
 * (../shared/yardstick: bare Fastify 5 + pg, used unmodified from a private copy), each on its own
 * database of one PostgreSQL, driven by the yardstick's own load.mjs scenario by scenario (the
 * service, then the yardstick); then the SQL each request costs; then the reads again with the
 * data grown to each size. The `fairness` scenario measures the service alone (the yardstick has
 * no accounts): one account's small reads, alone and beside another's 8 MiB reads; so do
 * batch (bench/batch.ts: 10 content updates in one batch against 10 single updates),
 * project-copy and the history and live-change scenarios (bench/history.ts, events.ts). Writes
 * bench/results/<date>.md (and the raw numbers as .json) and prints the report. Everything it
 * starts is stopped and removed at the end, on failure and on Ctrl-C.
 *
 * Options (`npm run bench -- --help`):
 *   --duration <s>        measured seconds per scenario and server (default 10)
 *   --warmup <s>          discarded warm-up seconds before each measurement (default 3)
 *   --connections <n>     load driver connections (default 20)
 *   --scenarios <a,b,..>  tree,columns,content,create,resize,mixed,conditional,compressed,
 *                         render,shared,assets,move,move-many,duplicate,batch,import,fairness,
 *                         project-copy,history-bytes,history-reads,events-latency,events-rss
 *                         (default: all; `history` and `events` name their two)
 *   --growth <n,n,..>     total contents for the growth runs (default 100000,1000000; "none")
 *   --yardstick <dir>     the yardstick's folder (default ../shared/yardstick)
 * DATABASE_URL (a superuser's) puts both databases on that server; without it, on an embedded
 * PostgreSQL the bench starts in a temp folder.
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { Client } from 'pg';
import { format, resolveConfig } from 'prettier';
import { cleanUp, installSignalHandlers, interrupted, onCleanup } from './cleanup';
import { type BenchConfig, isPaired, loadBenchConfig, ONE_OFF_PEAKS, READS } from './config';
import { type BatchResult, measureBatch } from './batch';
import { type BenchDatabases, prepareDatabases, withClient } from './database';
import { describeEnvironment } from './environment';
import {
  type EventsLatencyResult,
  type EventsRssResult,
  measureEventsLatency,
  measureEventsRss,
} from './events';
import { type FairnessResult, measureFairness } from './fairness';
import { growService } from './growth';
import {
  type HistoryBytesResult,
  type HistoryReadsResult,
  measureHistoryBytes,
  measureHistoryReads,
} from './history';
import { type BenchContext, measureScenario, type ScenarioResult } from './measure';
import { checkPlans } from './plans';
import { measureProjectCopy, type ProjectCopyResult } from './project-copy';
import { renderReport } from './report';
import { type GrowthRun, type GrowthStep, type RunResults } from './results';
import { type Servers, snapshotBuild, startService, startYardstick } from './servers';
import { countSql, type SqlCounts } from './sql-counts';
import { readTargets } from './targets';
import {
  editorTargets,
  measureMemberRemoval,
  measurePresenceLatency,
  type MemberRemovalResult,
  type PresenceLatencyResult,
} from './team';
import {
  growYardstick,
  installYardstick,
  seedThroughApi,
  seedYardstick,
  type YardstickCopy,
} from './yardstick';

const ROOT = resolve(__dirname, '..');
const startedAt = performance.now();

function log(message: string) {
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(0).padStart(4);
  console.error(`[bench ${seconds} s] ${message}`);
}

const since = (t0: number) => (performance.now() - t0) / 1000;

async function main() {
  installSignalHandlers();
  const config = loadBenchConfig(process.argv.slice(2), process.env, ROOT);
  if (!existsSync(join(config.yardstickDir, 'load.mjs'))) {
    throw new Error(`no yardstick in ${config.yardstickDir} (--yardstick <dir>)`);
  }
  const environment = describeEnvironment(ROOT);
  const started = new Date().toISOString();

  // World-walkable, so that an embedded PostgreSQL running as `postgres` (under root) can use it.
  const tempDir = await mkdtemp(join(tmpdir(), 'layout-bench-'));
  await chmod(tempDir, 0o755);
  onCleanup(`remove ${tempDir}`, () => rm(tempDir, { recursive: true, force: true }));
  const { entry, builtAt } = await snapshotBuild(tempDir);
  log(`service build of ${builtAt.toISOString()} copied to ${tempDir}`);

  const databases = await prepareDatabases(config.serverUrl, tempDir, log);
  log(databases.description);
  log(`copying the yardstick from ${config.yardstickDir} and installing its packages`);
  const copy = await installYardstick(config.yardstickDir, tempDir);
  const serviceDb = await connect(databases.serviceUrl);
  const yardstickDb = await connect(databases.yardstickUrl);

  log('seeding the yardstick (seed.mjs --reset --projects 20)');
  const yardstickTargetsFile = join(tempDir, 'yardstick-targets.json');
  let t0 = performance.now();
  await seedYardstick(copy, databases.yardstickUrl, yardstickTargetsFile);
  const yardstickSeconds = since(t0);

  log('starting the service');
  const service = await startService(entry, databases.serviceUrl, tempDir);
  log('seeding the service through its API (seed.mjs --api --projects 20)');
  const serviceTargetsFile = join(tempDir, 'service-targets.json');
  t0 = performance.now();
  await seedThroughApi(copy, service.url, serviceTargetsFile);
  const serviceSeconds = since(t0);
  // Settled as the yardstick's seed leaves its own: fresh statistics, no checkpoint pending.
  await serviceDb.query('VACUUM (ANALYZE)');
  await checkpoint(databases);
  log('starting the yardstick');
  const servers: Servers = {
    service,
    yardstick: await startYardstick(copy.dir, databases.yardstickUrl),
  };

  const serviceTargets = await readTargets(serviceTargetsFile);
  const yardstickTargets = await readTargets(yardstickTargetsFile);
  let editorTargetsFile: Promise<string> | undefined;
  const ctx: BenchContext = {
    copy,
    servers,
    serviceTargets,
    serviceTargetsFile,
    editorTargetsFile: () =>
      (editorTargetsFile ??= editorTargets(servers.service.url, serviceTargets, tempDir)),
    yardstickTargetsFile,
    dbpid: databases.postmasterPid,
    settings: { duration: config.duration, warmup: config.warmup, connections: config.connections },
    tempDir,
    log,
  };
  const seed = {
    serviceSeconds,
    yardstickSeconds,
    serviceContents: await countContents(serviceDb),
    yardstickContents: await countContents(yardstickDb),
  };

  const mainRuns: ScenarioResult[] = [];
  let fairness: FairnessResult | undefined;
  let batch: BatchResult | undefined;
  let projectCopy: ProjectCopyResult | undefined;
  let historyBytes: HistoryBytesResult | undefined;
  let historyReads: HistoryReadsResult | undefined;
  let eventsLatency: EventsLatencyResult | undefined;
  let eventsRss: EventsRssResult | undefined;
  let presenceLatency: PresenceLatencyResult | undefined;
  let memberRemoval: MemberRemovalResult | undefined;
  // A scenario that does one large piece of work at once (ten 10 MiB uploads, a 20 000-node
  // tree posted or copied, 8 MiB answers) leaves a heap grown for it, which V8 keeps. A load
  // scenario after it starts on a fresh service, so that its peak RSS is its own; the one-off
  // peaks are reported beside their scenarios.
  let heapGrownBefore = false;
  for (const scenario of config.scenarios) {
    if (heapGrownBefore && isPaired(scenario)) {
      log(`restarting the service before ${scenario}: the heap that a one-off peak grew goes`);
      await ctx.servers.service.stop();
      ctx.servers.service = await startService(entry, databases.serviceUrl, tempDir);
      heapGrownBefore = false;
    }
    if (ONE_OFF_PEAKS.has(scenario)) heapGrownBefore = true;
    if (scenario === 'fairness') fairness = await measureFairness(ctx);
    else if (scenario === 'batch') {
      log('batch: 10 content updates in one batch against 10 single updates');
      batch = await measureBatch(
        ctx.servers.service,
        serviceTargets.token,
        ctx.settings,
        ctx.dbpid,
        log,
      );
    } else if (scenario === 'presence-latency') {
      log('presence-latency: 10 projects × 10 members’ streams, 20 presences a second');
      presenceLatency = await measurePresenceLatency(
        ctx.servers.service,
        ctx.settings,
        ctx.dbpid,
        log,
      );
    } else if (scenario === 'member-removal') {
      log('member-removal: members removed one at a time, each with a stream open');
      memberRemoval = await measureMemberRemoval(ctx.servers.service, log);
    } else if (scenario === 'history-bytes') {
      log('history-bytes: what one revision stores, in a 90- and a 2 000-content project');
      historyBytes = await measureHistoryBytes(
        ctx.servers.service,
        serviceTargets.token,
        serviceDb,
        log,
      );
    } else if (scenario === 'history-reads') {
      log('history-reads: a copy of a read project; current and past reads, restores');
      historyReads = await measureHistoryReads(
        ctx.servers.service,
        serviceTargets,
        ctx.settings,
        ctx.dbpid,
        log,
      );
    } else if (scenario === 'events-latency') {
      log('events-latency: 10 accounts × 10 streams, 20 writes a second');
      eventsLatency = await measureEventsLatency(ctx.servers.service, ctx.settings, ctx.dbpid, log);
    } else if (scenario === 'events-rss') {
      log('events-rss: 100 accounts × 10 streams on a fresh instance');
      eventsRss = await measureEventsRss(
        ctx.servers.service,
        () => startService(entry, databases.serviceUrl, tempDir, 'service-streams'),
        log,
      );
    } else if (scenario === 'project-copy') {
      log('project-copy: building a project of about 20 000 nodes, then copying it');
      projectCopy = await measureProjectCopy(
        ctx.servers.service,
        serviceTargets.token,
        ctx.dbpid,
        log,
      );
    } else mainRuns.push(await measureScenario(ctx, scenario));
  }

  log('counting SQL round trips per request (a second instance of each server, via a proxy)');
  const sql = await countSql({
    databases,
    serviceEntry: entry,
    tempDir,
    copy,
    serviceTargets,
    yardstickTargets,
    scenarios: config.scenarios,
  });

  const growth = await runGrowth(
    config,
    ctx,
    { databases, entry, copy, serviceDb, yardstickDb },
    sql,
  );

  const results: RunResults = {
    date: started.slice(0, 10),
    config,
    environment,
    postgres: databases.version,
    database: databases.description,
    dbCpu: databases.postmasterPid !== undefined,
    serviceBuiltAt: builtAt.toISOString(),
    // Relative to the repository: a report names no folder of the machine it ran on.
    yardstick: {
      source: relative(ROOT, config.yardstickDir),
      hash: copy.hash,
      packages: copy.packages,
    },
    seed,
    main: mainRuns,
    fairness,
    batch,
    projectCopy,
    historyBytes,
    historyReads,
    eventsLatency,
    eventsRss,
    presenceLatency,
    memberRemoval,
    sql,
    growth,
    totalSeconds: since(startedAt),
  };
  await writeReport(results, started);
}

async function connect(url: string): Promise<Client> {
  const client = new Client({ connectionString: url, application_name: 'layout-bench' });
  await client.connect();
  onCleanup('close a bench connection', () => client.end());
  return client;
}

const countContents = async (db: Client) =>
  (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM contents')).rows[0].n;

/** Cluster-wide, so that no checkpoint falls into the next measurement. */
async function checkpoint(databases: BenchDatabases) {
  await withClient(databases.adminUrl, (admin) => admin.query('CHECKPOINT')).catch((error: Error) =>
    log(`no CHECKPOINT: ${error.message}`),
  );
}

interface GrowthDeps {
  databases: BenchDatabases;
  entry: string;
  copy: YardstickCopy;
  serviceDb: Client;
  yardstickDb: Client;
}

async function runGrowth(
  config: BenchConfig,
  ctx: BenchContext,
  deps: GrowthDeps,
  sql: SqlCounts[],
): Promise<RunResults['growth']> {
  const steps: GrowthStep[] = [];
  const runs: GrowthRun[] = [];
  const reads = config.scenarios.filter(isPaired).filter((scenario) => READS.has(scenario));
  for (const target of config.growthSizes) {
    log(`growing both databases to ${target.toLocaleString('en-US')} contents (servers stopped)`);
    await ctx.servers.service.stop();
    await ctx.servers.yardstick.stop();
    let t0 = performance.now();
    const service = await growService(deps.serviceDb, ctx.serviceTargets.projects[0], target);
    const serviceSeconds = since(t0);
    log(
      `  service: ${service.contents} contents, ${service.clones} projects cloned in ${serviceSeconds.toFixed(1)} s`,
    );
    t0 = performance.now();
    const yardstick = await growYardstick(deps.copy, deps.databases.yardstickUrl, target);
    const yardstickSeconds = since(t0);
    log(`  yardstick: ${yardstick.contents} contents in ${yardstickSeconds.toFixed(1)} s`);
    await checkpoint(deps.databases);
    steps.push({
      target,
      service,
      serviceSeconds,
      yardstick: { contents: yardstick.contents, seconds: yardstickSeconds },
    });
    log('restarting both servers');
    ctx.servers.service = await startService(deps.entry, deps.databases.serviceUrl, ctx.tempDir);
    ctx.servers.yardstick = await startYardstick(deps.copy.dir, deps.databases.yardstickUrl);
    for (const scenario of reads) {
      runs.push({ ...(await measureScenario(ctx, scenario)), contents: target });
    }
  }
  const plans: RunResults['growth']['plans'] = [];
  if (steps.length > 0) {
    for (const { scenario, service, yardstick } of sql) {
      if (!READS.has(scenario) || typeof service === 'string') continue;
      plans.push({
        scenario,
        service: await checkPlans(deps.serviceDb, service.sample, 'generic'),
        yardstick: yardstick
          ? await checkPlans(deps.yardstickDb, yardstick.sample, 'for-the-values')
          : [],
      });
    }
  }
  return { steps, runs, plans };
}

async function writeReport(results: RunResults, started: string) {
  const folder = join(ROOT, 'bench/results');
  // Never over an earlier report of the same day: then the start time is added (UTC).
  let name = results.date;
  if (existsSync(join(folder, `${name}.md`))) {
    name = `${results.date}-${started.slice(11, 16).replace(':', '')}`;
  }
  const file = join(folder, `${name}.md`);
  const changesFile = join(folder, 'changes.md');
  const changes = existsSync(changesFile) ? await readFile(changesFile, 'utf8') : undefined;
  // Formatted as the repository formats Markdown (aligned tables), so format:check stays green.
  const report = await format(renderReport(results, changes), {
    ...(await resolveConfig(file)),
    parser: 'markdown',
  });
  await mkdir(folder, { recursive: true });
  await writeFile(file, report);
  await writeFile(join(folder, `${name}.json`), JSON.stringify(results, null, 2));
  console.log(report);
  log(`written to bench/results/${name}.md (raw numbers: ${name}.json)`);
}

main()
  .then(() => cleanUp())
  .catch(async (error: unknown) => {
    // Stopping the servers on Ctrl-C fails the requests in flight: not worth a banner.
    if (interrupted()) return;
    console.error('\n==================== BENCH FAILED ====================');
    console.error(error instanceof Error ? error.message : error);
    console.error('======================================================\n');
    await cleanUp();
    process.exit(1);
  });
