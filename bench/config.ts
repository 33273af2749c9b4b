import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

/**
 * The yardstick's scenarios (load.mjs), then the service's own: `conditional`, `compressed`
 * (the tree read with `Accept-Encoding`), `render`, `shared` and `assets` (issue 52: the read
 * projects rendered as pages, opened through share links, and a 200 KB image's bytes with ten
 * 10 MiB uploads at once; set beside the yardstick's tree), `move`, `move-many` and `duplicate`
 * (contents moved between two columns of one project, or of one project per connection, a
 * block copied; set beside the yardstick's resize and create), `batch` (issue 49: 10 content
 * updates in one batch against 10 single updates), `import` (issue 49: the seed's project
 * posted whole to `POST /projects`, set beside the yardstick's tree, then a tree of about
 * 20 000 nodes posted whole), `fairness` (one account's large reads against another's small
 * ones), `project-copy` (a project of about 20 000 nodes copied), and the history and live
 * changes of issue 20: `history-bytes` (what one revision stores), `history-reads` (past states
 * and restores beside the current read), `events-latency` (commit to event with 100 open
 * streams) and `events-rss` (one instance holding 1 000 streams); `batch` and the six from
 * `fairness` on are the service's alone (ALONE). `history` and `events` name their two. The
 * order is the run's: `batch` runs before `import`; a paired scenario after one of
 * ONE_OFF_PEAKS starts on a fresh service. Then issue 50's: the reads by an editor who does
 * not own the projects (`tree-editor`, `columns-editor`, `content-editor`, beside the
 * yardstick's reads), and, the service's alone, `presence-latency` (a `PUT …/presence` to its
 * event on 100 streams over 10 projects) and `member-removal` (a removal to the end of the
 * member's streams); `team` names them with the owner's reads they are judged against.
 */
export const SCENARIOS = [
  'tree',
  'columns',
  'content',
  'create',
  'resize',
  'mixed',
  'conditional',
  'compressed',
  'render',
  'shared',
  'assets',
  'move',
  'move-many',
  'duplicate',
  'batch',
  'import',
  'fairness',
  'project-copy',
  'history-bytes',
  'history-reads',
  'events-latency',
  'events-rss',
  'tree-editor',
  'columns-editor',
  'content-editor',
  'presence-latency',
  'member-removal',
] as const;
export type ScenarioName = (typeof SCENARIOS)[number];
/** The scenarios of the service alone, with no yardstick run beside them. */
const ALONE = [
  'batch',
  'fairness',
  'project-copy',
  'history-bytes',
  'history-reads',
  'events-latency',
  'events-rss',
  'presence-latency',
  'member-removal',
] as const;
/** Names that stand for several scenarios in `--scenarios`. */
export const GROUPS: Record<string, readonly ScenarioName[]> = {
  history: ['history-bytes', 'history-reads'],
  events: ['events-latency', 'events-rss'],
  // The owner's reads with the editor's, which are judged against them.
  team: [
    'tree',
    'tree-editor',
    'columns',
    'columns-editor',
    'content',
    'content-editor',
    'presence-latency',
    'member-removal',
  ],
};

/**
 * Issue 50: the yardstick's reads, by an editor of the read projects who does not own them
 * (the service checks a membership where it checked the owner), each beside the yardstick's
 * own read of that name.
 */
export const EDITOR_READS = {
  'tree-editor': 'tree',
  'columns-editor': 'columns',
  'content-editor': 'content',
} as const;
export type EditorRead = keyof typeof EDITOR_READS;
export const isEditorRead = (scenario: ScenarioName): scenario is EditorRead =>
  scenario in EDITOR_READS;
/** The yardstick's scenario (load.mjs) that a paired scenario runs. */
export const loadScenarioOf = (scenario: ScenarioName): ScenarioName =>
  isEditorRead(scenario) ? EDITOR_READS[scenario] : scenario;
/** The scenarios measured on both servers. */
/** The scenarios that hold one large piece of work at once; see ONE_OFF_PEAKS's use in run.ts. */
export const ONE_OFF_PEAKS: ReadonlySet<ScenarioName> = new Set([
  'assets',
  'import',
  'fairness',
  'project-copy',
]);

export type PairedScenario = Exclude<ScenarioName, (typeof ALONE)[number]>;
export const isPaired = (scenario: ScenarioName): scenario is PairedScenario =>
  !(ALONE as readonly string[]).includes(scenario);

/**
 * The service's own writes, which the yardstick cannot do, and the yardstick's scenario each is
 * set beside: a move (one statement behind the lock) beside a resize (the same), moves spread
 * over one project per connection (no lock waits for another) beside it too, a copy of a block
 * of 31 nodes beside a create of one, an import of a whole project beside its whole read (an
 * import writes what a read reads).
 */
export const EDITS = {
  move: 'resize',
  'move-many': 'resize',
  duplicate: 'create',
  import: 'tree',
} as const;
export type EditScenario = keyof typeof EDITS;
export const isEdit = (scenario: ScenarioName): scenario is EditScenario => scenario in EDITS;

/** Scenarios that write: the service gets a fresh write project for each of their runs. */
export const WRITES: ReadonlySet<ScenarioName> = new Set(['create', 'resize', 'mixed']);

/** What the growth runs repeat (of the scenarios chosen). */
export const READS: ReadonlySet<ScenarioName> = new Set([
  'tree',
  'columns',
  'content',
  'conditional',
]);

/** Read projects seeded on each side (seed.mjs --projects). */
export const PROJECTS = 20;

export interface BenchConfig {
  /** Measured seconds per scenario and server. */
  duration: number;
  /** Seconds of load before each measurement, thrown away (JIT, pools, caches). */
  warmup: number;
  /** Concurrent keep-alive connections of the load generator. */
  connections: number;
  scenarios: ScenarioName[];
  /** Total contents to grow each database to, ascending; empty skips the growth runs. */
  growthSizes: number[];
  /** The yardstick's folder (copied, never written to). */
  yardstickDir: string;
  /** A PostgreSQL server to create the bench databases on; undefined: an embedded one. */
  serverUrl: string | undefined;
}

export const USAGE = `Usage: npm run bench -- [options]
Builds the service and measures it against the yardstick (bare Fastify + pg), each on its own
database of one PostgreSQL, with the yardstick's load.mjs; writes bench/results/<date>.md (+ .json).
  --duration <s>        measured seconds per scenario and server (default 10)
  --warmup <s>          warm-up seconds before each measurement, discarded (default 3)
  --connections <n>     concurrent connections of the load generator (default 20)
  --scenarios <a,b,..>  of ${SCENARIOS.join(',')}
                        (default: all; history = history-bytes,history-reads;
                        events = events-latency,events-rss; team = the owner's and the
                        editor's reads, presence-latency, member-removal)
  --growth <n,n,..>     total contents to grow both databases to, then repeat the reads
                        (default 100000,1000000; "none" skips the growth runs)
  --yardstick <dir>     the yardstick's folder (default ../shared/yardstick from the repo root)
  --help                this text
The fairness scenario runs against the service only (the yardstick has no accounts): another
account's small reads at 100 req/s alone, then while one account reads its ~8 MiB project in 20
connections. So does project-copy: a project of about 20 000 nodes copied five times, one after
another, timed, with the service's peak RSS. move, move-many (moves spread over one project per
connection) and duplicate run the service's own driver, set beside the yardstick's resize and
create; so does import (the seed's 90-content project posted whole to POST /projects, spread
over one fresh account per connection), set beside the yardstick's tree, then a tree of 19 711
nodes posted whole five times, timed; what it made is deleted. batch runs against the service
only: 10 content updates in one POST /projects/<p>/batch against single PUTs of a content,
over one project per connection, the two in turn. history-bytes, history-reads, events-latency
and events-rss measure the service's history and live changes alone (bench/history.ts,
events.ts); tree-editor, columns-editor and content-editor are the reads of the read projects by
an editor who does not own them, beside the yardstick's reads; presence-latency and
member-removal the presence and the end of a removed member's streams (bench/team.ts).
Environment: DATABASE_URL=postgresql://superuser@host:port/db runs on that server (two fresh
databases are created on it and dropped afterwards); without it, on an embedded PostgreSQL in a
temp folder. The user must be allowed to CREATE DATABASE (and CHECKPOINT, for the yardstick's seed).`;

export function loadBenchConfig(argv: string[], env: NodeJS.ProcessEnv, root: string): BenchConfig {
  const { values } = parseArgs({
    args: argv,
    options: {
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      scenarios: { type: 'string' },
      growth: { type: 'string' },
      yardstick: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const growth = values.growth ?? '100000,1000000';
  return {
    duration: positive('duration', values.duration, 10),
    warmup: positive('warmup', values.warmup, 3, true),
    connections: Math.round(positive('connections', values.connections, 20)),
    scenarios: scenarioList(values.scenarios),
    growthSizes:
      growth === 'none'
        ? []
        : [...new Set(growth.split(',').map((size) => positive('growth', size.trim(), 0)))].sort(
            (a, b) => a - b,
          ),
    yardstickDir: yardstickDirOf(root, values.yardstick),
    serverUrl: env.DATABASE_URL?.trim() || undefined,
  };
}

function scenarioList(raw: string | undefined): ScenarioName[] {
  if (raw === undefined) return [...SCENARIOS];
  const names = raw
    .split(',')
    .map((name) => name.trim())
    .flatMap((name): string[] => [...(GROUPS[name] ?? [name])]);
  const unknown = names.filter((name) => !(SCENARIOS as readonly string[]).includes(name));
  if (unknown.length > 0 || names.length === 0) fail(`unknown scenario(s): ${unknown.join(', ')}`);
  // In the canonical order, each once.
  return SCENARIOS.filter((name) => names.includes(name));
}

function positive(name: string, raw: string | undefined, fallback: number, zeroOk = false) {
  try {
    return numberOption(name, raw, fallback, zeroOk);
  } catch (error) {
    return fail((error as Error).message);
  }
}

/** A numeric option of a bench command: its fallback when absent; throws when it is no number. */
export function numberOption(
  name: string,
  raw: string | undefined,
  fallback: number,
  zeroOk = false,
): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || (!zeroOk && value === 0)) {
    throw new Error(`--${name} must be a ${zeroOk ? 'non-negative' : 'positive'} number`);
  }
  return value;
}

/** The yardstick's folder: the option's, or ../shared/yardstick beside the repository. */
export function yardstickDirOf(root: string, raw: string | undefined): string {
  return resolve(root, raw ?? '../shared/yardstick');
}

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}
