import { loadavg } from 'node:os';
import { type BenchConfig } from './config';
import { type Environment } from './environment';
import { type GrowthStep } from './growth';
import { type Measurement } from './load';
import { type PlanCheck } from './plans';
import { SHAPE } from './seed';
import { type SqlProfile } from './sql-profile';

export interface Pair<T> {
  label: string;
  service: T;
  baseline: T;
}

export interface RunResults {
  date: string;
  config: BenchConfig;
  environment: Environment;
  postgres: string;
  database: string;
  /** When dist/ was built (the run uses a private copy of it). */
  serviceBuiltAt: string;
  seedSeconds: number;
  checks: number;
  load: Pair<Measurement>[];
  diagnostics: Pair<Measurement>[];
  sql: Pair<SqlProfile>[];
  growth: {
    steps: GrowthStep[];
    runs: (Pair<Measurement> & { contents: number })[];
    plans: Pair<PlanCheck[]>[];
  };
  totalSeconds: number;
}

const f = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
const int = (value: number) => Math.round(value).toLocaleString('en-US');
const ratio = (a: number, b: number) => (b > 0 ? `${f(a / b, 2)}×` : 'n/a');

function table(head: string[], rows: string[][]): string {
  return [
    `| ${head.join(' | ')} |`,
    `| ${head.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}

/** The main table, on its own so that it can be pasted into the README. */
export function loadTable(pairs: Pair<Measurement>[]): string {
  return table(
    [
      'Scenario',
      'Service req/s',
      'Baseline req/s',
      'Throughput (svc ÷ base)',
      'Service p50 / p99 ms',
      'Baseline p50 / p99 ms',
      'p99 (svc ÷ base)',
      'Service RSS MiB',
      'Baseline RSS MiB',
      'Non-2xx / errors',
    ],
    pairs.map(({ label, service: s, baseline: b }) => [
      label,
      int(s.rps),
      int(b.rps),
      ratio(s.rps, b.rps),
      `${f(s.p50)} / ${f(s.p99)}`,
      `${f(b.p50)} / ${f(b.p99)}`,
      ratio(s.p99, b.p99),
      int(s.peakRssMiB),
      int(b.peakRssMiB),
      `${s.non2xx + b.non2xx} / ${s.errors + b.errors}`,
    ]),
  );
}

export function renderReport(results: RunResults): string {
  const { config, environment: env } = results;
  const total = results.load.reduce(
    (sum, pair) => sum + pair.service.requests + pair.baseline.requests,
    0,
  );
  const lines = [
    `# Benchmark ${results.date}: service vs bare Fastify + pg baseline`,
    '',
    'Produced by `npm run bench` (bench/run.ts). The service runs from its production build ' +
      '(`node dist/apps/api/src/main.js`, `RATE_LIMIT_ENABLED=false LOG_LEVEL=warn`); the baseline ' +
      '(bench/baseline/) serves the same requests with the same responses from the same tables, ' +
      'checked answer by answer before measuring. Ratios are service ÷ baseline.',
    '',
    '## Setup',
    '',
    `- Machine: ${env.cores} × ${env.cpu}, ${f(env.memoryGiB)} GiB RAM, Linux ${env.kernel}; ` +
      `load average ${env.loadAverageAtStart.map((x) => f(x, 2)).join(' ')} at start, ` +
      `${loadavg()
        .map((x) => f(x, 2))
        .join(' ')} at the end. The load generator, both servers ` +
      'and PostgreSQL share these cores.',
    `- Node ${env.node}; ${results.postgres}; ${results.database}.`,
    `- Service: ${pkgs(env, ['@nestjs/core', '@nestjs/platform-fastify', '@nestjs/passport', 'passport-http-bearer', 'class-validator', 'class-transformer', '@prisma/client', '@prisma/adapter-pg', 'pg', 'sanitize-html'])}; build of ${results.serviceBuiltAt} from commit ${env.commit} (plus any uncommitted changes).`,
    `- Baseline: ${pkgs(env, ['fastify', 'pg', 'sanitize-html'])}. Load: ${pkgs(env, ['autocannon'])}.`,
    `- Load: ${config.connections} connections, ${config.warmup} s warm-up + ${config.duration} s ` +
      `per scenario and server, spread over ${config.accounts} accounts with one project each ` +
      `(${SHAPE.blocks} blocks × ${SHAPE.rowsPerBlock} rows × ${SHAPE.columnsPerRow} columns of ` +
      `size ${SHAPE.size} × ${SHAPE.contents} contents), seeded through the API in ` +
      `${f(results.seedSeconds)} s; ${results.checks} equivalence checks passed. Both servers use ` +
      'a pool of 10 database connections.',
    '',
    '## Throughput, latency, memory',
    '',
    loadTable(results.load),
    '',
    `${int(total)} measured requests, every one 2xx, no connection errors or timeouts. RSS is ` +
      'the peak resident set of the server process during warm-up and measurement.',
    '',
    'Floors (same load settings, ' + `${config.diagnosticDuration} s):`,
    '',
    loadTable(results.diagnostics),
    '',
    '## Where the time goes (one request at a time, database calls counted on the wire)',
    '',
    table(
      [
        'Scenario',
        'SQL round trips svc / base',
        'Statements svc / base',
        'DB wait ms svc / base',
        'Latency ms svc / base',
        'Outside the DB ms svc / base',
      ],
      results.sql.map(({ label, service: s, baseline: b }) => [
        label,
        `${f(s.roundTrips)} / ${f(b.roundTrips)}`,
        `${f(s.statements)} / ${f(b.statements)}`,
        `${f(s.dbMs, 2)} / ${f(b.dbMs, 2)}`,
        `${f(s.latencyMs, 2)} / ${f(b.latencyMs, 2)}`,
        `${f(s.latencyMs - s.dbMs, 2)} / ${f(b.latencyMs - b.dbMs, 2)}`,
      ]),
    ),
    '',
    'A round trip is a simple query or an extended-protocol Sync; DB wait is the time from ' +
      'each to PostgreSQL’s ReadyForQuery (loopback included); latency is the median of lone ' +
      'requests; "outside the DB" is their difference (HTTP, framework, auth, validation, ORM, ' +
      'serialisation).',
  ];
  lines.push('', ...renderGrowth(results));
  lines.push('', `Whole run: ${f(results.totalSeconds / 60)} min.`, '');
  return lines.join('\n');
}

function renderGrowth(results: RunResults): string[] {
  const { steps, runs, plans } = results.growth;
  if (steps.length === 0) return ['## Growth', '', 'Skipped (`--growth none`).'];
  const lines = [
    '## Growth: reads with other accounts’ data in the tables',
    '',
    `Filler inserted with one INSERT … generate_series per table (${runs.length > 0 ? `${results.config.growthWarmup} s warm-up + ${results.config.growthDuration} s per run` : ''}):`,
    '',
    table(
      ['Other accounts’ contents', 'Rows inserted (all tables)', 'INSERT s', 'VACUUM ANALYZE s'],
      steps.map((step) => [
        int(step.contents),
        int(step.inserts.reduce((sum, insert) => sum + insert.rows, 0)),
        f(step.insertSeconds),
        f(step.vacuumSeconds),
      ]),
    ),
    '',
    table(
      [
        'Scenario',
        'Other accounts’ contents',
        'Service p99 ms',
        'Baseline p99 ms',
        'Service req/s',
        'Baseline req/s',
      ],
      runs.map((run) => [
        run.label,
        int(run.contents),
        f(run.service.p99),
        f(run.baseline.p99),
        int(run.service.rps),
        int(run.baseline.rps),
      ]),
    ),
    '',
  ];
  const labels = [...new Set(runs.map((run) => run.label))];
  for (const label of labels) {
    const series = runs.filter((run) => run.label === label);
    const [first, last] = [series[0], series[series.length - 1]];
    const verdict = (a: number, b: number) => (b / a <= 1.5 ? 'flat' : 'GROWS');
    lines.push(
      `- ${label}: p99 at ${int(last.contents)} ÷ p99 at ${int(first.contents)}: service ` +
        `${ratio(last.service.p99, first.service.p99)} (${verdict(first.service.p99, last.service.p99)}), ` +
        `baseline ${ratio(last.baseline.p99, first.baseline.p99)} (${verdict(first.baseline.p99, last.baseline.p99)}).`,
    );
  }
  lines.push('');
  for (const { label, service, baseline } of plans) {
    const scans = (checks: PlanCheck[]) => {
      const tables = [...new Set(checks.flatMap((check) => check.seqScans))];
      return tables.length === 0
        ? `${checks.length} statement(s), index access only`
        : `SEQUENTIAL SCAN of ${tables.join(', ')}`;
    };
    lines.push(
      `- Plans on the largest database, ${label}: service ${scans(service)}; baseline ${scans(baseline)}.`,
    );
  }
  lines.push(
    '',
    '"Flat" means p99 grew by at most 1.5× from the smallest to the largest database (the ' +
      'machine is shared, so smaller swings are noise); the EXPLAIN check is the noise-free ' +
      'evidence: a plan with only index access does not grow with the table.',
  );
  return lines;
}

function pkgs(env: Environment, names: string[]): string {
  return names.map((name) => `${name} ${env.packages[name]}`).join(', ');
}
