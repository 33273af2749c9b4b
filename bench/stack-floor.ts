/**
 * `npm run bench:floor`: what the fixed stack alone reaches on create, beside the yardstick and
 * the service. The floor (bench/stack-floor/app.ts: NestJS, Passport's bearer strategy, a global
 * ValidationPipe) sends the yardstick's own statements to the yardstick's database; the service
 * (its build, `npm run build` first) has a database of its own, seeded through its API as the
 * bench seeds it. The three are driven by the yardstick's load.mjs, `--scenarios create`, in
 * turns, the order rotating round by round: the service ÷ the floor says what the contract's
 * own work on a create costs beside what the stack alone costs, in the same run. Each round
 * also measures the ceiling of one project's creates (bench/create-ceiling.ts: the service's own
 * statements of a create, by PostgreSQL alone, for as long as a load's run): the service's
 * create, whose load goes to one project, cannot pass it, whatever its process does.
 *
 * Options: --rounds <n> (default 3), --duration <s> (6), --warmup <s> (2), --connections <n>
 * (20), --yardstick <dir> (../shared/yardstick). DATABASE_URL (a superuser's) as for the bench;
 * without it, an embedded PostgreSQL in a temp folder. Nothing is written to bench/results.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { cleanUp, installSignalHandlers, onCleanup } from './cleanup';
import { numberOption, yardstickDirOf } from './config';
import { measureCreateCeiling } from './create-ceiling';
import { prepareDatabases } from './database';
import { type ServerProcess, startServer } from './processes';
import {
  localServerEnv,
  serviceMallocEnv,
  serviceNodeFlags,
  snapshotBuild,
  startService,
  startYardstick,
} from './servers';
import { freePort } from '../test/support/free-port';
import { readTargets, writeTargets } from './targets';
import { createWriteProject } from './write-project';
import {
  installYardstick,
  type LoadLine,
  runLoad,
  seedThroughApi,
  seedYardstick,
} from './yardstick';

const ROOT = resolve(__dirname, '..');

function log(message: string) {
  console.error(`[floor] ${message}`);
}

function options() {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      yardstick: { type: 'string' },
    },
  });
  return {
    rounds: Math.round(numberOption('rounds', values.rounds, 3)),
    // A service's run creates into one project, which holds 8 MiB: at 2 000 creates/s a
    // longer run fills it, and the creates past it are refused.
    duration: numberOption('duration', values.duration, 6),
    warmup: numberOption('warmup', values.warmup, 2, true),
    connections: Math.round(numberOption('connections', values.connections, 20)),
    yardstick: yardstickDirOf(ROOT, values.yardstick),
  };
}

/** The floor, as the service runs: its Node flags and allocator setting, tsx for the source. */
async function startFloor(databaseUrl: string): Promise<ServerProcess> {
  const port = await freePort();
  return startServer({
    name: 'floor',
    args: [...serviceNodeFlags(), '--import', 'tsx', join(__dirname, 'stack-floor', 'app.ts')],
    cwd: ROOT,
    port,
    readyPath: '/health/live',
    env: { ...localServerEnv(databaseUrl, port), ...serviceMallocEnv() },
  });
}

/** CPU milliseconds per request of the measured server's process tree. */
const cpuMsPerRequest = (line: LoadLine) =>
  line.cpuPct === null ? 'n/a' : ((line.cpuPct * 10) / line.rps).toFixed(2);

async function main() {
  installSignalHandlers();
  const o = options();
  const tempDir = await mkdtemp(join(tmpdir(), 'layout-floor-'));
  onCleanup(`remove ${tempDir}`, () => rm(tempDir, { recursive: true, force: true }));
  log('installing the yardstick in a temp folder');
  const copy = await installYardstick(o.yardstick, tempDir);
  const databases = await prepareDatabases(process.env.DATABASE_URL, tempDir, log);
  const targets = join(tempDir, 'targets.json');
  await seedYardstick(copy, databases.yardstickUrl, targets);
  const { entry } = await snapshotBuild(tempDir);
  const service = await startService(entry, databases.serviceUrl, tempDir);
  const serviceTargets = join(tempDir, 'service-targets.json');
  log('seeding the service through its API');
  await seedThroughApi(copy, service.url, serviceTargets);
  const seeded = await readTargets(serviceTargets);
  // The service caps a column's contents and a project's size, the yardstick does not: each of
  // the service's runs creates into a write project of its own, of the seed's shape.
  const freshServiceTargets = async (round: number) => {
    const file = join(tempDir, `service-targets-${round}.json`);
    const write = await createWriteProject(service.url, seeded.token);
    await writeTargets(file, { ...seeded, write });
    return file;
  };
  const servers = {
    floor: await startFloor(databases.yardstickUrl),
    yardstick: await startYardstick(copy.dir, databases.yardstickUrl),
    service,
  };
  const names = ['floor', 'yardstick', 'service', 'ceiling'] as const;
  type Name = (typeof names)[number];
  const rows: string[] = [];
  const ratios: number[] = [];
  const ceilingRatios: number[] = [];
  for (let round = 1; round <= o.rounds; round++) {
    // Each in turn first, so that none always meets the warmest machine.
    const order = names.map((_, i) => names[(i + round - 1) % names.length]);
    const lines = {} as Record<Exclude<Name, 'ceiling'>, LoadLine>;
    let ceiling = 0;
    for (const name of order) {
      if (name === 'ceiling') {
        ceiling = await measureCreateCeiling({
          serviceUrl: service.url,
          databaseUrl: databases.serviceUrl,
          token: seeded.token,
          seconds: o.duration,
          groupSize: o.connections,
        });
        log(`round ${round}, ceiling: ${Math.round(ceiling)} creates/s`);
        continue;
      }
      const server = servers[name];
      lines[name] = await runLoad(copy, {
        url: server.url,
        targetsFile: name === 'service' ? await freshServiceTargets(round) : targets,
        scenario: 'create',
        duration: o.duration,
        warmup: o.warmup,
        connections: o.connections,
        pid: server.pid,
        jsonFile: join(tempDir, `${name}-${round}.jsonl`),
      });
      const line = lines[name];
      log(`round ${round}, ${name}: ${Math.round(line.rps)} req/s, p99 ${line.p99} ms`);
      if (line.non2xx > 0 || line.errors > 0) {
        throw new Error(`${name}: ${line.non2xx} non-2xx and ${line.errors} errors`);
      }
    }
    const { floor, yardstick, service: own } = lines;
    ratios.push(own.rps / floor.rps);
    ceilingRatios.push(ceiling / floor.rps);
    rows.push(
      `| ${round} | ${Math.round(own.rps)} | ${Math.round(floor.rps)} | ${Math.round(yardstick.rps)} | ` +
        `${Math.round(ceiling)} | ${(own.rps / floor.rps).toFixed(2)}× | ` +
        `${(ceiling / floor.rps).toFixed(2)}× | ${(floor.rps / yardstick.rps).toFixed(2)}× | ` +
        `${cpuMsPerRequest(own)} / ${cpuMsPerRequest(floor)} / ${cpuMsPerRequest(yardstick)} | ` +
        `${own.p99} / ${floor.p99} / ${yardstick.p99} |`,
    );
  }
  const spread = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    return `${sorted[0].toFixed(2)}–${sorted[sorted.length - 1].toFixed(2)}×, median ${median.toFixed(2)}×`;
  };
  console.log(
    [
      `create, ${o.connections} connections, ${o.warmup} s + ${o.duration} s a run, ${databases.version}`,
      '',
      '| Round | Service req/s | Floor req/s | Yardstick req/s | Ceiling creates/s | Service ÷ floor | Ceiling ÷ floor | Floor ÷ yardstick | CPU ms/req (service / floor / yardstick) | p99 ms (service / floor / yardstick) |',
      '| ----- | ------------- | ----------- | --------------- | ----------------- | --------------- | --------------- | ----------------- | ---------------------------------------- | ------------------------------------ |',
      ...rows,
      '',
      `Service ÷ floor over ${ratios.length} rounds: ${spread(ratios)} (target ≥ 0.9×).`,
      `Ceiling ÷ floor (PostgreSQL alone, the service's statements of a create, one project): ${spread(ceilingRatios)}.`,
    ].join('\n'),
  );
}

main()
  .catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  })
  .finally(() => cleanUp());
