/**
 * `npm run bench`: the service (production build) against the bare-minimum baseline, on one
 * database, scenario by scenario; then the SQL each request costs; then reads with a growing
 * database. Writes bench/results/<date>.md (and the raw numbers as .json) and prints the report.
 * Options: `npm run bench -- --help`. Everything it starts is stopped and removed at the end,
 * on failure and on Ctrl-C.
 */
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { format, resolveConfig } from 'prettier';
import { cleanUp, installSignalHandlers, interrupted, onCleanup } from './cleanup';
import { type BenchConfig, loadBenchConfig } from './config';
import { type BenchDatabase, prepareDatabase } from './database';
import { describeEnvironment } from './environment';
import { growFiller } from './growth';
import { assertClean, type LoadSettings, measure, type Measurement } from './load';
import { PgWireProxy } from './pg-proxy';
import { checkPlans } from './plans';
import { type ServerProcess } from './processes';
import { type Pair, renderReport, type RunResults } from './report';
import {
  diagnosticScenarios,
  mainScenarios,
  readScenarios,
  type Scenario,
  type ScenarioKey,
} from './scenarios';
import { type Fixture, resetSeededProjects, seedThroughApi } from './seed';
import { buildBaseline, snapshotBuild, startBaseline, startService } from './servers';
import { profileSql, type SqlProfile } from './sql-profile';
import { verifyEquivalence } from './verify';

const ROOT = resolve(__dirname, '..');
const startedAt = performance.now();

function log(message: string) {
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(0).padStart(4);
  console.error(`[bench ${seconds} s] ${message}`);
}

async function main() {
  installSignalHandlers();
  const config = loadBenchConfig(process.argv.slice(2), process.env);
  const environment = describeEnvironment(ROOT);
  const date = new Date().toISOString().slice(0, 10);

  // World-walkable, so that an embedded PostgreSQL running as `postgres` (under root) can use it.
  const tempDir = await mkdtemp(join(tmpdir(), 'layout-bench-'));
  await chmod(tempDir, 0o755);
  onCleanup(`remove ${tempDir}`, () => rm(tempDir, { recursive: true, force: true }));
  const { entry: serviceEntry, builtAt } = await snapshotBuild(tempDir);
  log(`service build of ${builtAt.toISOString()} copied to ${tempDir}`);

  const database = await prepareDatabase(config.serverUrl, tempDir);
  const baselineEntry = await buildBaseline(tempDir);

  log(`starting the service on ${database.description}`);
  const service = await startService(serviceEntry, database.serviceEnv, tempDir);
  const db = new Client({ connectionString: database.url, application_name: 'layout-bench' });
  await db.connect();
  onCleanup('close the bench connection', () => db.end());
  const { rows } = await db.query<{ server_version: string }>('SHOW server_version');
  const postgres = `PostgreSQL ${rows[0].server_version}`;

  log(`seeding ${config.accounts} accounts through the API`);
  const seedStarted = performance.now();
  const fixture = await seedThroughApi(service.url, config.accounts);
  const seedSeconds = (performance.now() - seedStarted) / 1000;

  log('starting the baseline');
  const baseline = await startBaseline(baselineEntry, database.url, tempDir);
  log('checking that both give the same answers');
  const checks = await verifyEquivalence(service.url, baseline.url, fixture);
  log(`${checks} checks passed`);

  const pair = measurePair(service, baseline, db, fixture);
  const settings = {
    duration: config.duration,
    warmup: config.warmup,
    connections: config.connections,
  };
  const load: Pair<Measurement>[] = [];
  for (const scenario of mainScenarios(fixture)) load.push(await pair(scenario, settings));
  const diagnostics: Pair<Measurement>[] = [];
  const short = { ...settings, duration: config.diagnosticDuration };
  for (const scenario of diagnosticScenarios(fixture))
    diagnostics.push(await pair(scenario, short));

  log('counting SQL round trips per request');
  const entries = { service: serviceEntry, baseline: baselineEntry };
  const sql = await profileBoth(database, tempDir, entries, db, fixture);

  const growth = await runGrowth(config, db, fixture, pair, sql);

  const results: RunResults = {
    date,
    config,
    environment,
    postgres,
    database: database.description,
    serviceBuiltAt: builtAt.toISOString(),
    seedSeconds,
    checks,
    load,
    diagnostics,
    sql: sql.map(({ label, service: s, baseline: b }) => ({ label, service: s, baseline: b })),
    growth,
    totalSeconds: (performance.now() - startedAt) / 1000,
  };
  const folder = join(ROOT, 'bench/results');
  const file = join(folder, `${date}.md`);
  // Formatted as the repository formats Markdown (aligned tables), so format:check stays green.
  const report = await format(renderReport(results), {
    ...(await resolveConfig(file)),
    parser: 'markdown',
  });
  await mkdir(folder, { recursive: true });
  await writeFile(file, report);
  await writeFile(join(folder, `${date}.json`), JSON.stringify(results, null, 2));
  console.log(report);
  log(`written to bench/results/${date}.md`);
}

type MeasurePair = (scenario: Scenario, settings: LoadSettings) => Promise<Pair<Measurement>>;

/** Service, then baseline, each from the seeded state; a run with any non-2xx stops the bench. */
function measurePair(
  service: ServerProcess,
  baseline: ServerProcess,
  db: Client,
  fixture: Fixture,
): MeasurePair {
  return async (scenario, settings) => {
    const results: Measurement[] = [];
    for (const server of [service, baseline]) {
      log(`${scenario.label}: ${server.name}`);
      const measurement = await measure(server, scenario, settings);
      if (scenario.writes) await resetSeededProjects(db, fixture, server.applicationName);
      assertClean(server.name, scenario, measurement);
      results.push(measurement);
    }
    const [s, b] = results;
    log(
      `  ${s.rps.toFixed(0)} vs ${b.rps.toFixed(0)} req/s, p99 ${s.p99.toFixed(1)} vs ${b.p99.toFixed(1)} ms`,
    );
    return { label: scenario.label, service: s, baseline: b };
  };
}

/**
 * A second service and baseline whose database connections go through the counting proxy
 * (the measured ones connect directly, so the proxy never slows a measurement).
 */
async function profileBoth(
  database: BenchDatabase,
  tempDir: string,
  entries: { service: string; baseline: string },
  db: Client,
  fixture: Fixture,
): Promise<(Pair<SqlProfile> & { key: ScenarioKey })[]> {
  const direct = new URL(database.url);
  const proxy = await PgWireProxy.start({
    host: direct.hostname,
    port: Number(direct.port || 5432),
  });
  onCleanup('stop the SQL proxy', () => proxy.close());
  const viaProxy = new URL(database.url);
  viaProxy.hostname = '127.0.0.1';
  viaProxy.port = String(proxy.port);
  const url = viaProxy.toString();
  const service = await startService(
    entries.service,
    { DATABASE_URL: url, MIGRATE_ON_START: 'false' },
    tempDir,
    'service (counted)',
  );
  const baseline = await startBaseline(entries.baseline, url, tempDir, 'baseline (counted)');
  const profiles: (Pair<SqlProfile> & { key: ScenarioKey })[] = [];
  for (const scenario of [...mainScenarios(fixture), ...diagnosticScenarios(fixture)]) {
    const s = await profileSql(service.url, proxy, scenario, 30);
    const b = await profileSql(baseline.url, proxy, scenario, 30);
    if (scenario.writes) {
      await resetSeededProjects(db, fixture, service.applicationName);
      await resetSeededProjects(db, fixture, baseline.applicationName);
    }
    profiles.push({ key: scenario.key, label: scenario.label, service: s, baseline: b });
  }
  await service.stop();
  await baseline.stop();
  await proxy.close();
  return profiles;
}

async function runGrowth(
  config: BenchConfig,
  db: Client,
  fixture: Fixture,
  pair: MeasurePair,
  sql: (Pair<SqlProfile> & { key: ScenarioKey })[],
): Promise<RunResults['growth']> {
  const growth: RunResults['growth'] = { steps: [], runs: [], plans: [] };
  const settings = {
    duration: config.growthDuration,
    warmup: config.growthWarmup,
    connections: config.connections,
  };
  let filler = 0;
  for (const size of config.growthSizes) {
    log(`growing the database to ${size.toLocaleString('en-US')} other accounts' contents`);
    const step = await growFiller(db, filler, size);
    filler = size;
    growth.steps.push(step);
    log(
      `  inserted in ${step.insertSeconds.toFixed(1)} s, vacuumed in ${step.vacuumSeconds.toFixed(1)} s`,
    );
    for (const scenario of readScenarios(fixture)) {
      growth.runs.push({ ...(await pair(scenario, settings)), contents: size });
    }
  }
  if (growth.steps.length > 0) {
    for (const scenario of readScenarios(fixture)) {
      const profile = sql.find((entry) => entry.key === scenario.key);
      if (!profile) continue;
      growth.plans.push({
        label: scenario.label,
        service: await checkPlans(db, profile.service.sample),
        baseline: await checkPlans(db, profile.baseline.sample),
      });
    }
  }
  return growth;
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
