import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { PLAN_CACHE_MODE } from '../apps/api/src/database/database-pool';
import { expectCall } from './http';
import { createWriteProject } from './write-project';

// The ceiling of one project's creates: the service's own statements of a create, sent as its
// group commit sends them, by PostgreSQL alone (see bench/group-ceiling.ts).

const QUERIES = join(resolve(__dirname, '..'), 'apps/api/src/layout/queries');

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

export interface CeilingRun {
  /** The service, its build running on `databaseUrl`: it makes the write projects. */
  serviceUrl: string;
  databaseUrl: string;
  /** An account's token; its account owns the projects the run creates into. */
  token: string;
  seconds: number;
  /** Creates per transaction: the load's connections, each with one create in flight. */
  groupSize: number;
}

/**
 * Creates per second into one fresh write project of the seed's shape, for `seconds`: one
 * connection sends groups of creates, each group one transaction: `BEGIN`, then per create a
 * `SAVEPOINT` (but the first), the project's lock (`projects.lock`) and the content's insert
 * (`nodes.content.insert`), pipelined, then `COMMIT`, the statements word for word from the
 * written-out queries and prepared as the pool prepares them. A group that made fewer contents
 * than it sent throws: a statement that finds nothing to change answers without an error.
 */
export async function measureCreateCeiling(run: CeilingRun): Promise<number> {
  const me = await expectCall(200, run.serviceUrl, 'GET', '/accounts/auth/me', {
    token: run.token,
  });
  const accountId = (me.body as { _id: string })._id;
  const write = await createWriteProject(run.serviceUrl, run.token);
  const targets = write.createTargets.slice(0, run.groupSize);
  const lock = writtenStatement('projects.repository.sql', 'projects.lock');
  const insert = writtenStatement('nodes.repository.sql', 'nodes.content.insert');
  const client = new Client({
    connectionString: run.databaseUrl,
    // As the service's pool: statements sent before the previous one answered go out at once.
    ...({ pipeline: true } as object),
    options: `-c plan_cache_mode=${PLAN_CACHE_MODE} -c jit=off -c enable_incremental_sort=off`,
  });
  await client.connect();
  try {
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
    const contents = async () =>
      Number(
        (
          await client.query<{ n: string }>(
            'SELECT count(*) AS n FROM contents WHERE project_id = $1',
            [write.project],
          )
        ).rows[0].n,
      );
    await runGroup(); // prepares both statements
    let creates = 0;
    const before = await contents();
    const started = performance.now();
    while (performance.now() - started < run.seconds * 1000) {
      await runGroup();
      creates += targets.length;
    }
    const rate = creates / ((performance.now() - started) / 1000);
    const made = (await contents()) - before;
    if (made !== creates) throw new Error(`${creates} creates sent, ${made} made`);
    return rate;
  } finally {
    await client.end();
  }
}
