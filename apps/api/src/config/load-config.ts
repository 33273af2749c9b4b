import { StartupError } from './startup-error';
import { type AppConfig, LOG_LEVELS, type LogLevel } from './app-config';

/** Bad values of settings, all of them, in one sentence that says what to do. */
export class ConfigError extends StartupError {
  constructor(readonly problems: readonly string[]) {
    super(
      `Fix the configuration (the environment or .env) and start again: ${problems.join('; ')}.`,
    );
  }
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Turns environment variables into an AppConfig, collecting every bad value before failing so
 * that an operator fixes them all in one go. Every variable is documented in the README.
 */
export function loadConfig(env: Env = process.env): AppConfig {
  const problems: string[] = [];
  const read = new EnvReader(env, problems);
  const host = read.string('HOST', '127.0.0.1');

  const config: AppConfig = {
    host,
    port: read.integer('PORT', 3000, 0, 65535),
    logLevel: read.oneOf<LogLevel>('LOG_LEVEL', 'info', LOG_LEVELS),
    database: {
      url: read.postgresUrl('DATABASE_URL'),
      embedded: {
        dataDir: read.string('EMBEDDED_PG_DATA_DIR', '.data/postgres'),
        port: read.integer('EMBEDDED_PG_PORT', 54329, 1, 65535),
      },
      poolSize: read.integer('DATABASE_POOL_SIZE', 20, 1, 1000),
      timeoutMs: read.integer('DATABASE_TIMEOUT_MS', 5000, 100, 600_000),
      migrateOnStart: read.boolean('MIGRATE_ON_START', true),
    },
    auth: {
      tokenTtlSeconds: read.integer('TOKEN_TTL_SECONDS', 3600, 60, 31_536_000),
      signUpEnabled: read.boolean('SIGNUP_ENABLED', true),
    },
    corsOrigins: read.origins('CORS_ORIGINS'),
    rateLimit: {
      enabled: read.boolean('RATE_LIMIT_ENABLED', true),
      windowSeconds: read.integer('RATE_LIMIT_WINDOW_SECONDS', 60, 1, 86_400),
      accountMax: read.integer('RATE_LIMIT_ACCOUNT_MAX', 1200, 1, 1_000_000_000),
      anonymousMax: read.integer('RATE_LIMIT_ANONYMOUS_MAX', 30, 1, 1_000_000_000),
      sharedMax: read.integer('RATE_LIMIT_SHARED_MAX', 120, 1, 1_000_000_000),
    },
    redis: {
      url: read.redisUrl('REDIS_URL'),
      keyPrefix: read.matching(
        'REDIS_KEY_PREFIX',
        'layout:',
        /^[A-Za-z0-9._:-]{1,64}$/,
        '1 to 64 characters of A-Z a-z 0-9 . _ : -',
      ),
    },
    http: {
      headersTimeoutMs: read.integer('HTTP_HEADERS_TIMEOUT_MS', 10_000, 100, 600_000),
      requestTimeoutMs: read.integer('HTTP_REQUEST_TIMEOUT_MS', 30_000, 100, 600_000),
      keepAliveTimeoutMs: read.integer('HTTP_KEEP_ALIVE_TIMEOUT_MS', 5_000, 100, 600_000),
      idleTimeoutMs: read.integer('HTTP_IDLE_TIMEOUT_MS', 60_000, 100, 3_600_000),
      shutdownGraceMs: read.integer('SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    },
    heapGrowingPercent: read.integer('HEAP_GROWING_PERCENT', 50, 0, 1000),
    readCacheBytes: read.integer('READ_CACHE_BYTES', 32 * 1024 * 1024, 0, 64 * 1024 ** 3),
    requireIfMatch: read.boolean('REQUIRE_IF_MATCH', false),
    history: {
      revisions: read.integer('HISTORY_REVISIONS', 1000, 1, 1_000_000),
    },
    events: {
      // The contract's comment "at least every 15 s" is a bound; timers fire late on a busy
      // event loop, so the most one may ask for leaves a second for that.
      heartbeatMs: read.integer('EVENTS_HEARTBEAT_MS', 10_000, 10, 14_000),
      maxUnsentBytes: read.integer('EVENTS_MAX_UNSENT_BYTES', 256 * 1024, 1024, 64 * 1024 * 1024),
    },
    metrics: {
      port: read.optionalInteger('METRICS_PORT', 0, 65535),
      host: read.string('METRICS_HOST', host),
    },
    tracing: {
      endpoint: read.httpUrl('OTEL_EXPORTER_OTLP_ENDPOINT'),
      serviceName: read.string('OTEL_SERVICE_NAME', 'proposal-layout-service'),
    },
    assets: {
      store: read.oneOf<'disk' | 's3'>('ASSET_STORE', 'disk', ['disk', 's3']),
      dir: read.string('ASSET_DIR', '.data/assets'),
      accountBytes: read.integer('ASSET_ACCOUNT_BYTES', 1024 ** 3, 1, 1024 ** 5),
      s3: {
        endpoint: read.httpUrl('S3_ENDPOINT'),
        bucket: read.string('S3_BUCKET', '') || undefined,
        region: read.string('S3_REGION', env.AWS_REGION?.trim() || 'us-east-1'),
        forcePathStyle: read.boolean('S3_FORCE_PATH_STYLE', true),
      },
    },
  };

  if (
    config.metrics.port !== undefined &&
    config.metrics.port !== 0 &&
    config.metrics.port === config.port
  ) {
    problems.push("METRICS_PORT must differ from PORT (the metrics are never on the API's port)");
  }

  if (config.assets.store === 's3' && config.assets.s3.bucket === undefined) {
    problems.push('S3_BUCKET must name the bucket when ASSET_STORE is s3');
  }
  if (config.http.headersTimeoutMs > config.http.requestTimeoutMs) {
    problems.push(
      'HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS (the headers are part of the request)',
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

class EnvReader {
  constructor(
    private readonly env: Env,
    private readonly problems: string[],
  ) {}

  private raw(name: string): string | undefined {
    const value = this.env[name]?.trim();
    return value === '' ? undefined : value;
  }

  string(name: string, fallback: string): string {
    return this.raw(name) ?? fallback;
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const parsed = /^\d+$/.test(value) ? Number(value) : NaN;
    if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
      this.problems.push(`${name} must be an integer from ${min} to ${max} (got "${value}")`);
      return fallback;
    }
    return parsed;
  }

  /** An integer when set, `undefined` when not (a feature that is off unless asked for). */
  optionalInteger(name: string, min: number, max: number): number | undefined {
    return this.raw(name) === undefined ? undefined : this.integer(name, min, min, max);
  }

  boolean(name: string, fallback: boolean): boolean {
    const value = this.raw(name)?.toLowerCase();
    if (value === undefined) return fallback;
    if (['true', '1', 'yes', 'on'].includes(value)) return true;
    if (['false', '0', 'no', 'off'].includes(value)) return false;
    this.problems.push(`${name} must be true or false (got "${value}")`);
    return fallback;
  }

  oneOf<T extends string>(name: string, fallback: T, allowed: readonly T[]): T {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if ((allowed as readonly string[]).includes(value)) return value as T;
    this.problems.push(`${name} must be one of ${allowed.join(', ')} (got "${value}")`);
    return fallback;
  }

  postgresUrl(name: string): string | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    const url = parseUrl(value);
    if (!url || !['postgres:', 'postgresql:'].includes(url.protocol) || !url.hostname) {
      // The value may hold a password: never echo it.
      this.problems.push(`${name} must be a postgresql://user@host:port/database URL`);
      return undefined;
    }
    return value;
  }

  httpUrl(name: string): string | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    const url = parseUrl(value);
    if (!url || !['http:', 'https:'].includes(url.protocol) || !url.hostname) {
      // A collector's or a store's URL may hold credentials: never echo it.
      this.problems.push(
        `${name} must be an http:// or https:// URL such as http://collector:4318`,
      );
      return undefined;
    }
    return value;
  }

  matching(name: string, fallback: string, pattern: RegExp, description: string): string {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if (pattern.test(value)) return value;
    this.problems.push(`${name} must be ${description} (got "${value}")`);
    return fallback;
  }

  redisUrl(name: string): string | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    const url = parseUrl(value);
    const database = url?.pathname.replace(/^\//, '') ?? '';
    if (
      !url ||
      !['redis:', 'rediss:'].includes(url.protocol) ||
      !url.hostname ||
      !/^\d{0,2}$/.test(database)
    ) {
      // The value may hold a password: never echo it.
      this.problems.push(
        `${name} must be a redis://[user:password@]host:port[/db] URL (or rediss://)`,
      );
      return undefined;
    }
    return value;
  }

  origins(name: string): true | string[] {
    const value = this.raw(name);
    if (value === undefined || value === '*') return true;
    const origins = value
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean);
    for (const origin of origins) {
      let parsed: URL | undefined;
      try {
        parsed = new URL(origin);
      } catch {
        parsed = undefined;
      }
      if (!parsed || parsed.origin !== origin) {
        this.problems.push(
          `${name} must be "*" or a comma-separated list of origins such as https://editor.example.com (got "${origin}")`,
        );
      }
    }
    return origins;
  }
}

function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}
