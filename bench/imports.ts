import { BODY_LIMIT_BYTES } from '../apps/api/src/bootstrap/json-bodies';
import { DUPLICATE_NODES_MAX, PROJECTS_PER_ACCOUNT_MAX } from '../libs/contracts/src/limits';
import { measureRequests } from './edits';
import { newAccount } from './fairness';
import { call, expectCall } from './http';
import { type ServerProcess } from './processes';
import { sampleUsage } from './proc-stats';
import { COPIED_SHAPE } from './project-copy';
import { type TimedSeries } from './timed-series';
import { type LoadSettings } from './tree-reads';
import { type LoadLine } from './yardstick';

// `import`: a whole project posted to `POST /projects`, under load (set beside the yardstick's
// whole-project read), then a tree of about 20 000 nodes posted whole, timed.

/** Accounts the load spreads its imports over, and the body they post. */
export interface ImportTargets {
  /** One token per account: the imports take them in turn, one import in flight on each. */
  tokens: string[];
  /** The seed's read project as `GET /projects/<id>` answers it, posted as it is. */
  body: string;
  /** Contents in that body (the seed's 90). */
  contents: number;
}

/** What the scenario adds to its paired row: the spread, what it made, the large tree. */
export interface ImportExtras {
  /** Accounts the imports were spread over. */
  accounts: number;
  /** Bytes and contents of the project posted under load. */
  bodyBytes: number;
  contents: number;
  /** Projects the import runs (warm-up included) made, and how many were deleted afterwards. */
  made: number;
  deleted: number;
  wholeTree: WholeTreeImport;
}

/** The tree of about 20 000 nodes posted whole, IMPORTS_TIMED times one after another. */
export type WholeTreeImport = TimedSeries;

/** Posts of the large tree timed, one after another (as project-copy's copies). */
export const IMPORTS_TIMED = 5;
/** Accounts signed up at once (each hashes a password). */
const SIGN_UP_PARALLEL = 4;
/** Deletes in flight at once while cleaning up. */
const DELETE_PARALLEL = 8;

/**
 * The seed's read project as its owner reads it (`GET /projects/<id>`, 5 blocks × 3 rows × 3
 * columns × 2 texts, made by `seed.mjs --api`), and `accounts` fresh accounts to import it into:
 * an import takes the account's row lock (it counts the account's projects, at most 10 000), so
 * the load is spread over accounts as imports by a team's editors are, one import in flight on
 * each; with as many accounts as connections, no import waits for another's lock.
 */
export async function prepareImports(
  url: string,
  token: string,
  project: string,
  accounts: number,
): Promise<ImportTargets> {
  const response = await fetch(`${url}/projects/${project}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`GET /projects/${project}: ${response.status}`);
  type Tree = { blocks: { rows: { columns: { contents: unknown[] }[] }[] }[] };
  const contents = (JSON.parse(body) as Tree).blocks
    .flatMap((b) => b.rows)
    .flatMap((r) => r.columns)
    .reduce((sum, c) => sum + c.contents.length, 0);
  const tokens: string[] = [];
  for (let i = 0; i < accounts; i += SIGN_UP_PARALLEL) {
    const batch = Array.from({ length: Math.min(SIGN_UP_PARALLEL, accounts - i) }, () =>
      newAccount(url, 'import'),
    );
    tokens.push(...(await Promise.all(batch)));
  }
  return { tokens, body, contents };
}

/**
 * One run of imports: each request posts the body to `POST /projects` with the token of the
 * next account that has no import in flight and room for one more project, and its answer frees
 * it. Only 201 counts as success. `made` counts what each account was sent, across runs.
 */
export function measureImports(
  server: ServerProcess,
  targets: ImportTargets,
  made: number[],
  settings: LoadSettings,
  dbpid: number | undefined,
): Promise<LoadLine> {
  const busy = targets.tokens.map(() => false);
  let next = 0;
  const free = (): number => {
    const n = targets.tokens.length;
    for (let i = 0; i < n; i++) {
      const account = (next + i) % n;
      if (!busy[account] && made[account] < PROJECTS_PER_ACCOUNT_MAX) {
        next = (account + 1) % n;
        return account;
      }
    }
    // Only after a timeout (an answer that never came), or with every account full (a 409
    // then, counted as a failure): with as many accounts as connections, one is always free.
    return next++ % n;
  };
  return measureRequests(server, settings, dbpid, 'import', 201, targets.tokens[0], {
    next: (context) => {
      const account = free();
      busy[account] = true;
      made[account]++;
      context.account = account;
      return {
        method: 'POST',
        path: '/projects',
        body: targets.body,
        headers: { authorization: `Bearer ${targets.tokens[account]}` },
      };
    },
    answered: (status, context) => {
      const account = context.account as number;
      busy[account] = false;
      if (status !== 201) made[account]--;
    },
  });
}

const TEXT = '<p>Imported.</p>';

/**
 * A project of COPIED_SHAPE (project-copy's, 19 711 nodes) as one `POST /projects` body, built
 * directly: the texts are short, so that it stays within the contract's 1 MiB body (the copy's
 * own read, 6 MiB, does not).
 */
export function wholeTreeBody(): { body: string; nodes: number } {
  const { blocks, rows, columns, contents } = COPIED_SHAPE;
  const column = {
    size: 12 / columns,
    contents: Array.from({ length: contents }, () => ({ type: 'text', data: { html: TEXT } })),
  };
  const body = JSON.stringify({
    title: 'Imported whole',
    blocks: Array.from({ length: blocks }, (_, b) => ({
      description: `b${b}`,
      rows: Array.from({ length: rows }, () => ({
        columns: Array.from({ length: columns }, () => column),
      })),
    })),
  });
  const nodes = 1 + blocks * (1 + rows * (1 + columns * (1 + contents)));
  if (nodes > DUPLICATE_NODES_MAX) throw new Error(`${nodes} nodes: more than one tree may make`);
  if (Buffer.byteLength(body) > BODY_LIMIT_BYTES) {
    throw new Error(`the whole tree's body, ${Buffer.byteLength(body)} B, exceeds the body limit`);
  }
  return { body, nodes };
}

/**
 * The tree of wholeTreeBody posted IMPORTS_TIMED times, one after another, each timed from
 * request to answer, the service's peak RSS sampled meanwhile. What it makes is deleted with the
 * rest of the account's projects (deleteImported).
 */
export async function measureWholeTree(
  server: ServerProcess,
  token: string,
  dbpid: number | undefined,
  log: (message: string) => void,
): Promise<WholeTreeImport> {
  const { body, nodes } = wholeTreeBody();
  const bytes = Buffer.byteLength(body);
  log(`  a tree of ${nodes} nodes (${(bytes / 1024).toFixed(0)} KiB) posted whole`);
  const before = sampleUsage(server.pid, dbpid)(1);
  const usage = sampleUsage(server.pid, dbpid);
  const started = performance.now();
  const seconds: number[] = [];
  const statuses: number[] = [];
  for (let i = 0; i < IMPORTS_TIMED; i++) {
    const t0 = performance.now();
    const response = await fetch(`${server.url}/projects`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    });
    const answer = await response.text();
    seconds.push((performance.now() - t0) / 1000);
    statuses.push(response.status);
    log(
      `  post ${i + 1}: ${response.status} in ${seconds.at(-1)?.toFixed(2)} s` +
        (response.status === 201 ? '' : `: ${answer.slice(0, 300)}`),
    );
  }
  const used = usage((performance.now() - started) / 1000);
  return {
    nodes,
    bytes,
    seconds,
    statuses,
    rssMB: used.rssMB,
    rssBeforeMB: before.rssMB,
    cpuPct: used.cpuPct,
    dbCpuPct: used.dbCpuPct,
  };
}

/** Every project of these (fresh) accounts deleted; how many. */
export async function deleteImported(url: string, tokens: string[]): Promise<number> {
  const owned: { token: string; path: string }[] = [];
  for (const token of tokens) {
    const list = await expectCall(200, url, 'GET', '/projects', { token });
    for (const project of list.body as { _id: string }[]) {
      owned.push({ token, path: `/projects/${project._id}` });
    }
  }
  let next = 0;
  let deleted = 0;
  await Promise.all(
    Array.from({ length: DELETE_PARALLEL }, async () => {
      while (next < owned.length) {
        const { token, path } = owned[next++];
        if ((await call(url, 'DELETE', path, { token })).status === 204) deleted++;
      }
    }),
  );
  return deleted;
}
