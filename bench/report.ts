import { loadavg } from 'node:os';
import { PROJECT_TREE_MAX_BYTES } from '../libs/contracts/src/limits';
import { BATCH_OPERATIONS, type BatchResult } from './batch';
import { type Environment } from './environment';
import {
  FAIRNESS_GREEDY_CONNECTIONS,
  FAIRNESS_VICTIM,
  type FairnessResult,
  type VictimRun,
} from './fairness';
import { renderEvents, renderHistory } from './history-report';
import { IMPORTS_TIMED } from './imports';
import { type ScenarioResult, type Side } from './measure';
import { type PlanCheck } from './plans';
import { COPIED_SHAPE, type ProjectCopyResult } from './project-copy';
import { LABELS, measured, ratio, reference, type RunResults, versusTree } from './results';
import { type SqlProfile } from './sql-profile';
import { sortedTimes, type TimedSeries } from './timed-series';
import { FAIRNESS_P99_RATIO, verdicts } from './verdicts';

const f = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
const int = (value: number) =>
  Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : 'n/a';
const x = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : 'n/a');
const opt = (value: number | null) => (value === null ? '–' : String(value));

/** A Markdown table; columns from `numeric` on are right-aligned. */
function table(head: string[], rows: string[][], numeric = 1): string {
  const cells = (row: string[]) =>
    `| ${row.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`;
  return [
    cells(head),
    `| ${head.map((_, i) => (i < numeric ? '---' : '---:')).join(' | ')} |`,
    ...rows.map(cells),
  ].join('\n');
}

const cpu = (side: Side) => `${opt(side.cpuPct)} / ${opt(side.dbCpuPct)} / ${side.driverCpuPct}`;
const failures = (side: Side) =>
  `${side.non2xx} / ${side.errors}${side.warmupFailures > 0 ? ` (+${side.warmupFailures} in warm-up)` : ''}`;

/**
 * Service against yardstick, one row per scenario, phase after phase (the main runs; or each
 * growth size, whose rows then name their contents). Conditional is set against the yardstick's
 * tree of its own phase.
 */
function pairTable(
  phases: ScenarioResult[][],
  contents?: (result: ScenarioResult) => string,
): string {
  const head = [
    'Scenario',
    ...(contents ? ['Contents'] : []),
    'Service req/s',
    'Yardstick req/s',
    'Service ÷ yardstick',
    'Service p50 / p99 ms',
    'Yardstick p50 / p99 ms',
    'p99 ratio',
    'Peak RSS MiB svc / yard',
    'CPU % svc: server / db / driver',
    'CPU % yard: server / db / driver',
    'Non-2xx / errors svc',
    'Non-2xx / errors yard',
  ];
  const rows = phases.flatMap((phase) =>
    phase.map((result) => {
      const s = result.service;
      const y = reference(result, phase);
      const dash = '–';
      return [
        LABELS[result.scenario],
        ...(contents ? [contents(result)] : []),
        measured(s) ? int(s.rps) : s,
        y ? int(y.rps) : dash,
        measured(s) && y ? x(ratio(s.rps, y.rps)) : dash,
        measured(s) ? `${s.p50} / ${s.p99}` : dash,
        y ? `${y.p50} / ${y.p99}` : dash,
        measured(s) && y ? x(ratio(s.p99, y.p99)) : dash,
        `${measured(s) ? opt(s.rssMB) : dash} / ${y ? opt(y.rssMB) : dash}`,
        measured(s) ? cpu(s) : dash,
        y ? cpu(y) : dash,
        measured(s) ? failures(s) : dash,
        // conditional's and compressed's yardstick columns repeat its tree row: its failures are
        // counted there.
        result.yardstick ? failures(result.yardstick) : dash,
      ];
    }),
  );
  return table(head, rows);
}

export function renderReport(results: RunResults, changes: string | undefined): string {
  const lines = [
    `# Benchmark ${results.date}: service vs the yardstick`,
    '',
    'Produced by `npm run bench` (bench/run.ts). The service runs from its production build ' +
      '(`RATE_LIMIT_ENABLED=false LOG_LEVEL=warn`) on its own database; the yardstick (bare ' +
      'Fastify 5 + `pg`, hand-written SQL; used unmodified from a private copy) on another ' +
      'database of the same PostgreSQL. Both are seeded with the yardstick’s `seed.mjs` (the ' +
      'service through its API) and driven with the yardstick’s `load.mjs`, scenario by scenario, ' +
      'the service first and then the yardstick. Ratios are service ÷ yardstick. `fairness`, ' +
      '`batch`, `project-copy` and the history and live-change scenarios run against the ' +
      'service alone (the yardstick has no accounts, batches, history or streams).',
    '',
    ...renderTargets(results),
    '',
    ...renderSetup(results),
    '',
    '## Throughput, latency, memory, CPU',
    '',
    ...(results.main.length > 0
      ? [
          pairTable([results.main]),
          '',
          'From load.mjs: p50/p99 at 1 ms resolution; peak RSS of the server process (and its ' +
            'descendants) during the measured run; CPU % of the server and of the load driver over ' +
            'the measured run (100 % = one core). CPU % of PostgreSQL (the postmaster and all its ' +
            'backends, those that exited included: both databases, and any other client of that ' +
            'server) is the bench’s own, over each run. Each scenario’s measured time is cut into ' +
            'equal slices, two (create: as many as make slices of at most 2.5 s), which the two ' +
            'servers take in turn, service first, each slice a load.mjs run of its own, so that a ' +
            'drift of the machine’s speed meets both. Each server warms up once, before its first ' +
            'slice: reads in load.mjs’s own warm-up, the write scenarios (create, resize, mixed) ' +
            'in a run of their own, discarded. The service gets a fresh write project for its ' +
            'warm-up and for each slice of a write scenario (all created through its API before ' +
            'the scenario starts), as it caps a project at 8 MiB: a create slice fills about half ' +
            'of it at the fastest rate seen. Slices’ rates and CPU are averaged; p50, p99 and RSS ' +
            'are the worst slice’s. `conditional` ' +
            'sends `If-None-Match` with each read project’s ETag and counts only 304 as success; ' +
            '`compressed` sends `Accept-Encoding: gzip, deflate, br`, as a browser does, so that ' +
            'the service compresses every answer (brotli). The yardstick columns of both are the ' +
            'yardstick’s plain tree. `move`, `move-many` and `duplicate` are the service’s own writes, run by ' +
            'the bench’s driver (bench/edits.ts) slice by slice beside the yardstick’s `resize` ' +
            'and `create`: in `move`, as many contents as connections go from one column of a ' +
            'fresh write project to another and back, one move in flight per content, each ' +
            'content alternately to the other column’s end and to its top (`position: 0`), so ' +
            'that half the moves go each way and half to each place; `move-many` the same over ' +
            'one small project per connection, one content each, so that no move waits for ' +
            'another’s lock (no target: reported beside the resize); ' +
            'in `duplicate`, each request copies a block of the seed’s shape (31 nodes) right ' +
            'after itself, the blocks of six fresh projects in turn. `import` posts the seed’s ' +
            'read project whole (its `GET /projects/<id>` answer as `seed.mjs --api` made it, 90 ' +
            'contents) to `POST /projects`, beside the yardstick’s `tree` (an import writes what ' +
            'a read reads): creating a project takes its account’s row lock (an account holds ' +
            'at most 10 000), so the imports are spread over one fresh account per connection, ' +
            'each request taking the next account with no import in flight, as a team’s editors ' +
            'import each their own; only 201 counts, its p99 is measured only, and every project ' +
            'it made is deleted afterwards. A scenario against the yardstick that follows one ' +
            'doing a single large piece of work (`assets`’ ten 10 MiB uploads, `import`’s ' +
            '20 000-node tree, `fairness`’ 8 MiB answers, `project-copy`) starts on a fresh ' +
            'service: V8 keeps the heap such a peak grew, and the peak RSS of a row is its own.',
        ]
      : ['No scenario against the yardstick ran (`--scenarios`).']),
    '',
    ...renderFairness(results.fairness),
    '',
    ...renderBatch(results.batch),
    '',
    ...renderImport(results.main.find((r) => r.scenario === 'import')),
    '',
    ...renderProjectCopy(results.projectCopy),
    '',
    ...renderHistory(results),
    ...renderEvents(results),
    ...renderSql(results),
    '',
    ...renderGrowth(results),
    '',
    `Whole run: ${f(results.totalSeconds / 60)} min.`,
    '',
    '## What each optimisation gained',
    '',
    changes?.trim() ||
      'Nothing recorded yet: write it in `bench/results/changes.md`, which every report copies here.',
    '',
  ];
  return lines.join('\n');
}

function renderTargets(results: RunResults): string[] {
  return [
    '## Targets',
    '',
    table(
      ['Target', 'Measured', 'Result'],
      verdicts(results).map((v) => [
        v.target,
        v.measured,
        v.status === 'FAIL' ? '**FAIL**' : v.status,
      ]),
      3,
    ),
  ];
}

function renderSetup(results: RunResults): string[] {
  const { config, environment: env, seed, yardstick } = results;
  return [
    '## Setup',
    '',
    `- Machine: ${env.cores} × ${env.cpu}, ${f(env.memoryGiB)} GiB RAM, Linux ${env.kernel}; ` +
      `load average ${env.loadAverageAtStart.map((v) => f(v, 2)).join(' ')} at start, ` +
      `${loadavg()
        .map((v) => f(v, 2))
        .join(' ')} at the end. The load driver, both servers and PostgreSQL share these cores.`,
    `- Node ${env.node}; ${results.postgres}; ${results.database}.` +
      (results.dbCpu ? '' : ' The database’s CPU was not sampled (not a local postmaster).'),
    `- Service: ${pkgs(env, ['@nestjs/core', '@nestjs/platform-fastify', '@nestjs/passport', 'passport-http-bearer', 'class-validator', 'class-transformer', '@prisma/client', '@prisma/adapter-pg', 'pg', 'sanitize-html'])}; ` +
      `build of ${results.serviceBuiltAt} from commit ${env.commit} (plus any uncommitted changes).`,
    `- Yardstick: ${yardstick.source} (files sha256 ${yardstick.hash}), with ` +
      `${Object.entries(yardstick.packages)
        .map(([name, version]) => `${name} ${version}`)
        .join(
          ', ',
        )} (its load.mjs runs on its autocannon; the conditional, compressed and fairness scenarios on ` +
      `the repository’s, ${pkgs(env, ['autocannon'])}).`,
    `- Load: ${config.connections} connections, ${config.warmup} s warm-up + ${config.duration} s ` +
      `per scenario and server; scenarios ${config.scenarios.join(', ')}.`,
    `- Data: 20 read projects + 1 write project on each side (5 blocks × 3 rows × 3 columns of ` +
      `size 4 × 2 text contents of ~300 characters); the service seeded through its API in ` +
      `${f(seed.serviceSeconds)} s (${int(seed.serviceContents)} contents), the yardstick in SQL ` +
      `in ${f(seed.yardstickSeconds)} s (${int(seed.yardstickContents)} contents).`,
  ];
}

function renderFairness(fairness: FairnessResult | undefined): string[] {
  if (!fairness) return [];
  const { unloaded: u, loaded: l, greedy: g } = fairness;
  const mib = (bytes: number) => `${f(bytes / 1024 / 1024, 2)} MiB`;
  const row = (phase: string, v: VictimRun) => [
    phase,
    int(v.requests),
    `${v.p50} / ${v.p99} / ${v.max}`,
    `${v.non200} / ${v.errors}`,
    opt(v.rssMB),
    `${opt(v.cpuPct)} / ${opt(v.dbCpuPct)} / ${v.driverCpuPct}`,
  ];
  const count = (record: Record<string, number>) =>
    Object.entries(record)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, n]) => `${int(n)} × ${key}`)
      .join(', ') || 'none';
  const answered = Object.values(g.statuses).reduce((sum, n) => sum + n, 0);
  return [
    '## Fairness between accounts (the service only)',
    '',
    'CONTRACT.md part two, "Isolation and time limits": one account’s requests hold at most half ' +
      'of an instance’s database connections, past that they wait briefly and get 503 with ' +
      'Retry-After, and another account’s small read keeps its usual latency meanwhile. The ' +
      'yardstick has no accounts: this runs against the service alone. Two fresh accounts: the ' +
      `greedy one owns a project of ${fairness.bigProjectContents} quote contents of ~250 KB ` +
      `(${mib(fairness.bigProjectBytes)} as \`GET /projects/<id>\`, filled until the ` +
      `${mib(PROJECT_TREE_MAX_BYTES)} limit refused one more), the other a project of the read ` +
      `projects’ shape (${f(fairness.smallProjectBytes / 1024)} KiB). The other account’s ` +
      `\`GET /projects/<id>\` runs at ${FAIRNESS_VICTIM.rate} req/s over ` +
      `${FAIRNESS_VICTIM.connections} connections (autocannon’s rate cap: each connection sends ` +
      'its share of a second back to back, then waits), first alone, then while the greedy ' +
      `account reads its project in ${FAIRNESS_GREEDY_CONNECTIONS} connections from a process of ` +
      'its own, started one warm-up before the measurement. CPU % over each measured run (100 % ' +
      '= one core); PostgreSQL’s counts all its backends, any other client of that server ' +
      'included.',
    '',
    table(
      [
        'Other account’s reads',
        'Requests',
        'p50 / p99 / max ms',
        'Non-200 / errors',
        'Peak RSS MiB',
        'CPU % server / db / driver',
      ],
      [row('alone', u), row(`beside ${FAIRNESS_GREEDY_CONNECTIONS} greedy connections`, l)],
    ),
    '',
    `- p99 beside the greedy account ÷ p99 alone: ${x(ratio(l.p99, u.p99))} (target ≤ ` +
      `${FAIRNESS_P99_RATIO}×), over ${int(l.requests)} and ${int(u.requests)} reads, at 1 ms ` +
      'resolution. Each connection waits for its answer, so fewer reads beside the greedy ' +
      'account mean slower ones.',
    `- The greedy account, over its whole run (${f(g.seconds)} s, warm-up included): ` +
      `${int(answered)} answers: ${count(g.statuses)} by status; 503 problem types: ` +
      `${count(g.refusals)}` +
      (g.refusalsWithoutRetryAfter > 0
        ? `; **${int(g.refusalsWithoutRetryAfter)} 503 without Retry-After**`
        : '') +
      `; ${int(g.errors)} errors, ${int(g.timeouts)} timeouts; latency of its 200 answers ` +
      `p50 ${g.p50} ms, p99 ${g.p99} ms.`,
  ];
}

function renderImport(result: ScenarioResult | undefined): string[] {
  const extras = result?.imports;
  if (!extras) return [];
  const tree = extras.wholeTree;
  return [
    '## Importing whole projects',
    '',
    `Under load (the \`import\` row above): the seed’s project, ${int(extras.contents)} ` +
      `contents, ${f(extras.bodyBytes / 1024)} KiB as posted, spread over ${extras.accounts} ` +
      `fresh accounts; ${int(extras.made)} projects made by its runs (warm-up included), ` +
      `${int(extras.deleted)} deleted afterwards with the trees below. Then a tree of ` +
      `${COPIED_SHAPE.blocks} blocks × ${COPIED_SHAPE.rows} rows × ${COPIED_SHAPE.columns} ` +
      `columns × ${COPIED_SHAPE.contents} texts, the copy’s shape (${int(tree.nodes)} nodes), ` +
      `posted whole to \`POST /projects\` ${IMPORTS_TIMED} times one after another, each timed ` +
      `from request to answer; its body is built directly, with short texts, as the copy’s own ` +
      `read (6 MiB) does not fit the contract’s 1 MiB body: ${f(tree.bytes / 1024)} KiB.`,
    '',
    timedSeriesTable('Posts', tree),
  ];
}

/** A large write's times, one row: `label` names the writes (posts, copies). */
function timedSeriesTable(label: string, series: TimedSeries): string {
  return table(
    [label, 'Seconds each', 'Median s', 'Statuses', 'Peak RSS MiB (before)', 'CPU % server / db'],
    [
      [
        String(series.seconds.length),
        series.seconds.map((s) => f(s, 2)).join(', '),
        f(sortedTimes(series).median, 2),
        series.statuses.join(', '),
        `${opt(series.rssMB)} (${opt(series.rssBeforeMB)})`,
        `${opt(series.cpuPct)} / ${opt(series.dbCpuPct)}`,
      ],
    ],
  );
}

function renderBatch(batch: BatchResult | undefined): string[] {
  if (!batch) return [];
  const row = (arm: string, side: Side, operations: number) => [
    arm,
    int(side.rps),
    int(side.rps * operations),
    `${side.p50} / ${side.p99}`,
    opt(side.rssMB),
    cpu(side),
    failures(side),
  ];
  return [
    '## Batches against single updates (the service only)',
    '',
    `${batch.projects} projects, one per connection, each a block, a row and one column of ` +
      `${batch.contents} texts of ~300 characters. \`single\` sends \`PUT …/contents/<id>\`, ` +
      `one content of the project at a time, in turn; \`batched\` sends \`POST ` +
      `/projects/<p>/batch\` with ${BATCH_OPERATIONS} such \`PUT\`s, one per content of the ` +
      'project. Each update gives its content the other of two texts than it holds, so that ' +
      'every operation changes something. Each request takes the next project with no request ' +
      'in flight, so that no request waits for another’s project lock (a project’s writes run ' +
      'one after another by design), as editors each on their own proposal; both arms use the ' +
      'same projects, in slices taken in turn (single first), each arm warmed up once. A batch ' +
      `counts ${BATCH_OPERATIONS} operations; only 200 counts as success.`,
    '',
    table(
      [
        'Arm',
        'Requests/s',
        'Operations/s',
        'p50 / p99 ms',
        'Peak RSS MiB',
        'CPU % server / db / driver',
        'Non-2xx / errors',
      ],
      [row('single', batch.single, 1), row('batched', batch.batched, batch.contents)],
    ),
  ];
}

function renderProjectCopy(copy: ProjectCopyResult | undefined): string[] {
  if (!copy) return [];
  return [
    '## Copying a whole project (the service only)',
    '',
    `A project of ${COPIED_SHAPE.blocks} blocks × ${COPIED_SHAPE.rows} rows × ` +
      `${COPIED_SHAPE.columns} columns × ${COPIED_SHAPE.contents} texts: ${int(copy.nodes)} ` +
      `nodes, ${f(copy.bytes / 1024 / 1024, 2)} MiB as \`GET /projects/<id>\` (built through ` +
      `the API in ${f(copy.buildSeconds)} s), copied ${copy.seconds.length} times one after ` +
      'another with `POST /projects/<id>/duplicate`, each timed from request to answer.',
    '',
    timedSeriesTable('Copies', copy),
  ];
}

function renderSql(results: RunResults): string[] {
  if (results.sql.length === 0) return [];
  const both = (get: (p: SqlProfile) => string, s: SqlProfile | string, y?: SqlProfile) =>
    `${typeof s === 'string' ? '–' : get(s)} / ${y ? get(y) : '–'}`;
  return [
    '## Where the time goes (one request at a time, SQL counted on the wire)',
    '',
    table(
      [
        'Scenario',
        'SQL round trips svc / yard',
        'Statements svc / yard',
        'DB wait ms svc / yard',
        'Latency ms svc / yard',
        'Outside the DB ms svc / yard',
      ],
      results.sql.map(({ scenario, service: s, yardstick: y }) => [
        typeof s === 'string' ? `${scenario}: ${s}` : LABELS[scenario],
        both((p) => f(p.roundTrips), s, y),
        both((p) => f(p.statements), s, y),
        both((p) => f(p.dbMs, 2), s, y),
        both((p) => f(p.latencyMs, 2), s, y),
        both((p) => f(p.latencyMs - p.dbMs, 2), s, y),
      ]),
    ),
    '',
    'Through a counting proxy, on a second instance of each server: a round trip is a simple ' +
      'query or an extended-protocol Sync; DB wait is the time from each to PostgreSQL’s ' +
      'ReadyForQuery; latency is the median of 30 lone requests; "outside the DB" is their ' +
      'difference (HTTP, framework, auth, validation, serialisation).',
  ];
}

function renderGrowth(results: RunResults): string[] {
  const { steps, runs, plans } = results.growth;
  if (steps.length === 0) return ['## Growth', '', 'Skipped (`--growth none`).'];
  const lines = [
    '## Growth: reads with other accounts’ data in the tables',
    '',
    'The yardstick grown by its own `seed.mjs --projects 0 --contents N`; the service by cloning ' +
      'one of its read projects in SQL (every column copied, ids new, parent ids remapped) ' +
      'until its contents table holds N, then VACUUM ANALYZE. Both servers restarted, then the ' +
      'reads again.',
    '',
    table(
      [
        'Target contents',
        'Service contents',
        'Projects cloned',
        'INSERT s',
        'VACUUM ANALYZE s',
        'Yardstick contents',
        'Yardstick seed s',
      ],
      steps.map((step) => [
        int(step.target),
        int(step.service.contents),
        int(step.service.clones),
        f(step.service.insertSeconds),
        f(step.service.vacuumSeconds),
        int(step.yardstick.contents),
        f(step.yardstick.seconds),
      ]),
    ),
    '',
    ...[...new Set(steps.flatMap((step) => step.service.notes))].map((note) => `- Note: ${note}.`),
    '',
  ];
  const sizes = [...new Set(runs.map((run) => run.contents))];
  const phases = sizes.map((size) => runs.filter((run) => run.contents === size));
  lines.push(
    pairTable(phases, (result) => int((result as ScenarioResult & { contents: number }).contents)),
    '',
  );
  const last = phases[phases.length - 1] ?? [];
  for (const result of last) {
    const first = results.main.find((r) => r.scenario === result.scenario);
    const [s0, s1] = [first?.service, result.service];
    const [y0, y1] = [first && reference(first, results.main), reference(result, last)];
    if (!measured(s0) || !measured(s1)) continue;
    const trend = (a: number, b: number) =>
      `${x(ratio(b, a))} (${ratio(b, a) <= 1.5 ? 'flat' : 'GROWS'})`;
    lines.push(
      `- ${result.scenario}: p99 at ${int(sizes[sizes.length - 1])} contents ÷ p99 in the main ` +
        `run: service ${trend(s0.p99, s1.p99)}` +
        (!versusTree(result.scenario) && y0 && y1 ? `, yardstick ${trend(y0.p99, y1.p99)}` : '') +
        '.',
    );
  }
  lines.push('');
  for (const { scenario, service, yardstick } of plans) {
    lines.push(
      `- Plans on the largest database, ${scenario}: service ${scans(service)}; yardstick ${scans(yardstick)}.`,
    );
  }
  lines.push(
    '',
    '"Flat" means p99 grew by at most 1.5× (the machine is shared, so smaller swings are ' +
      'noise); the EXPLAIN check is the noise-free evidence: a plan with only index access ' +
      'does not grow with the table.',
  );
  return lines;
}

function scans(checks: PlanCheck[]): string {
  const failed = checks.filter((check) => check.error);
  const tables = [...new Set(checks.flatMap((check) => check.seqScans))];
  const verdict =
    tables.length === 0
      ? `${checks.length - failed.length} statement(s), index access only`
      : `SEQUENTIAL SCAN of ${tables.join(', ')}`;
  return failed.length > 0
    ? `${verdict} (${failed.length} not EXPLAINed: ${failed[0].error})`
    : verdict;
}

function pkgs(env: Environment, names: string[]): string {
  return names.map((name) => `${name} ${env.packages[name]}`).join(', ');
}
