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
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { PLAN_CACHE_MODE } from '../apps/api/src/database/database-pool';
import { cleanUp, installSignalHandlers, onCleanup } from './cleanup';
import { numberOption } from './config';
import { prepareDatabases } from './database';
import { newAccount } from './fairness';
import { expectCall } from './http';
import { snapshotBuild, startService } from './servers';
import { createWriteProject } from './write-project';

const ROOT = resolve(__dirname, '..');
const QUERIES = join(ROOT, 'apps/api/src/layout/queries');

function log(message: string) {
  console.error(`[ceiling] ${message}`);
}

/** A statement of a written-out queries file, by its name (`-- <name>` above it). */
function writtenStatement(file: string, name: string): string {
  const text = readFileSync(join(QUERIES, file), 'utf8');
  const start = text.indexOf(`\n-- ${name}\n`);
  if (start < 0) throw new Error(`${name} is not in ${file}`);
  const body = text.slice(start + name.length + 5);
  const next = body.search(/\n-- [a-z]+\.[\w.-]+\n/);
  return (next < 0 ? body : body.slice(0, next))
    .split('\n')
    .filter((line) => !line.startsWith('--'))
    .join('\n')
    .trim();
}

const STYLE = {
  backgroundImage: '',
  backgroundRepeat: 'no-repeat',
  backgroundSize: 'cover',
  backgroundPosition: 'center center',
  opacity: 0.9,
};
// The size of load.mjs's create (~320 characters of HTML).
const DATA = {
  html: `<p>${'Layout load test paragraph with some ordinary words. '.repeat(6)}</p>`,
};

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
  const me = await expectCall(200, service.url, 'GET', '/accounts/auth/me', { token });
  const accountId = (me.body as { _id: string })._id;
  const write = await createWriteProject(service.url, token);
  const targets = write.createTargets.slice(0, groupSize);

  const lock = writtenStatement('projects.repository.sql', 'projects.lock');
  const insert = writtenStatement('nodes.repository.sql', 'nodes.content.insert');
  const client = new Client({
    connectionString: databases.serviceUrl,
    // As the service's pool: statements sent before the previous one answered go out at once.
    ...({ pipeline: true } as object),
    options: `-c plan_cache_mode=${PLAN_CACHE_MODE} -c jit=off -c enable_incremental_sort=off`,
  });
  await client.connect();
  onCleanup('close the ceiling connection', () => client.end());

  const path = `/projects/${write.project}/blocks/${write.block}/rows/${write.row}/columns`;
  const runGroup = () => {
    const sent: Promise<unknown>[] = [client.query('BEGIN')];
    targets.forEach((target, i) => {
      if (i > 0) sent.push(client.query(`SAVEPOINT unit_${i}`));
      sent.push(
        client.query({
          name: 'projects.lock',
          text: lock,
          values: ['editor', accountId, write.project, 'content.create', path, 1000],
        }),
        client.query({
          name: 'nodes.content.insert',
          text: insert,
          values: [
            write.project,
            target.column,
            target.row,
            target.block,
            randomUUID(),
            'text',
            JSON.stringify(STYLE),
            JSON.stringify(DATA),
          ],
        }),
      );
    });
    sent.push(client.query('COMMIT'));
    return Promise.all(sent);
  };

  // A statement that finds nothing to change answers without an error: count what was made.
  const contentsOf = async (project: string) =>
    Number(
      (
        await client.query<{ n: string }>(
          'SELECT count(*) AS n FROM contents WHERE project_id = $1',
          [project],
        )
      ).rows[0].n,
    );
  await runGroup(); // prepares both statements
  const rates: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    let creates = 0;
    const before = await contentsOf(write.project);
    const started = performance.now();
    while (performance.now() - started < seconds * 1000) {
      await runGroup();
      creates += targets.length;
    }
    const rate = creates / ((performance.now() - started) / 1000);
    const made = (await contentsOf(write.project)) - before;
    if (made !== creates) throw new Error(`round ${round}: ${creates} creates sent, ${made} made`);
    rates.push(rate);
    log(`round ${round}: ${Math.round(rate)} creates/s`);
    // Each column holds at most 1 000 contents: start the next round on a fresh project's.
    if (round < rounds) {
      const fresh = await createWriteProject(service.url, token);
      Object.assign(write, fresh);
      targets.splice(0, targets.length, ...fresh.createTargets.slice(0, groupSize));
    }
  }
  const sorted = [...rates].sort((a, b) => a - b);
  console.log(
    `One project's creates, PostgreSQL alone (${databases.version}), groups of ${targets.length} ` +
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
