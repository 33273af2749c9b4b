import { parseArgs } from 'node:util';

/** What one bench run does; every member has a default that keeps the run under ~6 minutes. */
export interface BenchConfig {
  /** Measured seconds per scenario and server. */
  duration: number;
  /** Seconds of load before each measurement, thrown away (JIT, pools, caches). */
  warmup: number;
  /** Concurrent keep-alive connections of the load generator. */
  connections: number;
  /** Accounts (each with one seeded project) the load is spread over. */
  accounts: number;
  /** Contents owned by other accounts for the growth runs, ascending; empty skips them. */
  growthSizes: number[];
  growthDuration: number;
  growthWarmup: number;
  /** Seconds of load for the diagnostic scenarios (health, token only). */
  diagnosticDuration: number;
  /** A PostgreSQL server to create the bench database on; undefined: the embedded one. */
  serverUrl: string | undefined;
}

const USAGE = `Usage: npm run bench -- [options]
  --duration <s>          measured seconds per scenario (default 10)
  --warmup <s>            warm-up seconds per scenario (default 2)
  --connections <n>       concurrent connections (default 10)
  --accounts <n>          accounts/projects the load is spread over (default 8)
  --growth <n,n,...>      other accounts' contents for the growth runs
                          (default 1000,100000,1000000; "none" skips them)
  --growth-duration <s>   measured seconds per growth run and per floor (health, token
                          lookup) run (default 5)
  --growth-warmup <s>     warm-up seconds per growth run (default 1)
Environment: DATABASE_URL=postgresql://user@host:port/db runs on that server (a fresh database is
created on it and dropped afterwards); without it, on an embedded PostgreSQL in a temp folder.`;

export function loadBenchConfig(argv: string[], env: NodeJS.ProcessEnv): BenchConfig {
  const { values } = parseArgs({
    args: argv,
    options: {
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      accounts: { type: 'string' },
      growth: { type: 'string' },
      'growth-duration': { type: 'string' },
      'growth-warmup': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const growth = values.growth ?? '1000,100000,1000000';
  return {
    duration: positive('duration', values.duration, 10),
    warmup: positive('warmup', values.warmup, 2, true),
    connections: positive('connections', values.connections, 10),
    accounts: positive('accounts', values.accounts, 8),
    growthSizes:
      growth === 'none'
        ? []
        : growth
            .split(',')
            .map((size) => positive('growth', size.trim(), 0))
            .sort((a, b) => a - b),
    growthDuration: positive('growth-duration', values['growth-duration'], 5),
    growthWarmup: positive('growth-warmup', values['growth-warmup'], 1, true),
    diagnosticDuration: positive('growth-duration', values['growth-duration'], 5),
    serverUrl: env.DATABASE_URL?.trim() || undefined,
  };
}

function positive(name: string, raw: string | undefined, fallback: number, zeroOk = false) {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || (!zeroOk && value === 0)) {
    console.error(`--${name} must be a ${zeroOk ? 'non-negative' : 'positive'} number\n${USAGE}`);
    process.exit(2);
  }
  return value;
}
