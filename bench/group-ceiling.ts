/**
 * `npm run bench:group-ceiling`: how many creates of one project PostgreSQL alone runs per
 * second, the service's own statements sent as its group commit sends them, with nothing of
 * the service in the way. The service (its build, `npm run build` first) makes an account and
 * a write project of the seed's shape through its API; then one connection of this process
 * sends groups of creates, each group one transaction: `BEGIN`, then per create a `SAVEPOINT`
 * (but the first), the project's lock (`projects.lock`) and the content's insert
 * (`nodes.content.insert`), pipelined, then `COMMIT`, taken word for word from the written-out
 * statements (`layout/queries/*.sql`) and prepared as the pool prepares them. The rate is the
 * ceiling of one project's creates on this machine, whatever the service does around them:
 * the bench's `create` (all its writes go to one project) cannot pass it.
 *
 * Options: --rounds <n> (default 3), --duration <s> (6), --group <n> (20, the load's
 * connections). DATABASE_URL (a superuser's) as for the bench; without it, an embedded
 * PostgreSQL in a temp folder. Nothing is written to bench/results.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cleanUp, installSignalHandlers, onCleanup } from './cleanup';
import { numberOption } from './config';
import { measureCreateCeiling } from './create-ceiling';
import { prepareDatabases } from './database';
import { newAccount } from './fairness';
import { snapshotBuild, startService } from './servers';

function log(message: string) {
  console.error(`[ceiling] ${message}`);
}

async function main() {
  installSignalHandlers();
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string' },
      duration: { type: 'string' },
      group: { type: 'string' },
    },
  });
  const rounds = Math.round(numberOption('rounds', values.rounds, 3));
  const seconds = numberOption('duration', values.duration, 6);
  const groupSize = Math.round(numberOption('group', values.group, 20));

  const tempDir = await mkdtemp(join(tmpdir(), 'layout-ceiling-'));
  onCleanup(`remove ${tempDir}`, () => rm(tempDir, { recursive: true, force: true }));
  const databases = await prepareDatabases(process.env.DATABASE_URL, tempDir, log);
  const { entry } = await snapshotBuild(tempDir);
  const service = await startService(entry, databases.serviceUrl, tempDir);
  const token = await newAccount(service.url, 'ceiling');
  const rates: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    // Each column holds at most 1 000 contents: each round creates into a fresh project's.
    const rate = await measureCreateCeiling({
      serviceUrl: service.url,
      databaseUrl: databases.serviceUrl,
      token,
      seconds,
      groupSize,
    });
    rates.push(rate);
    log(`round ${round}: ${Math.round(rate)} creates/s`);
  }
  const sorted = [...rates].sort((a, b) => a - b);
  console.log(
    `One project's creates, PostgreSQL alone (${databases.version}), groups of ${groupSize} ` +
      `in one transaction, ${seconds} s a round: ${Math.round(sorted[0])}–` +
      `${Math.round(sorted[sorted.length - 1])} creates/s over ${rates.length} rounds, median ` +
      `${Math.round(sorted[Math.floor(sorted.length / 2)])}.`,
  );
}

main()
  .catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  })
  .finally(() => cleanUp());
