/** The service's whole configuration, read and validated once at start-up (see load-config.ts). */
export interface AppConfig {
  readonly host: string;
  readonly port: number;
  readonly logLevel: LogLevel;
  readonly database: DatabaseConfig;
  readonly auth: AuthConfig;
  /** `true` reflects any origin; otherwise the exact origins allowed. */
  readonly corsOrigins: true | readonly string[];
  readonly rateLimit: RateLimitConfig;
  readonly redis: RedisConfig;
  readonly http: HttpConfig;
  /**
   * How far V8 lets the heap grow past what survived the last full collection, in percent;
   * 0 keeps V8's own heuristics. See apply-heap-growth.ts.
   */
  readonly heapGrowingPercent: number;
  /**
   * What the documents this instance keeps to serve again may take in all, in bytes (0 keeps
   * none): see layout/repositories/document-cache.ts.
   */
  readonly readCacheBytes: number;
  /** Refuse PUT and DELETE without `If-Match` (428), so that no write goes in blind. */
  readonly requireIfMatch: boolean;
  readonly history: HistoryConfig;
  readonly events: EventsConfig;
  readonly metrics: MetricsConfig;
  readonly tracing: TracingConfig;
  readonly assets: AssetsConfig;
}

/** The Prometheus scrape endpoint, on a listener of its own (see apps/api/src/metrics). */
export interface MetricsConfig {
  /** Where `GET /metrics` answers; `undefined` records no request metrics and opens no port. */
  readonly port: number | undefined;
  readonly host: string;
}

/** OpenTelemetry traces (see apps/api/src/tracing). */
export interface TracingConfig {
  /**
   * The OTLP/HTTP collector's base URL (`/v1/traces` is appended, as OpenTelemetry's exporters
   * do); `undefined` leaves tracing off, its SDK not even loaded.
   */
  readonly endpoint: string | undefined;
  /** The `service.name` the spans carry. */
  readonly serviceName: string;
}

/** Uploaded images: where their bytes are kept, and how much an account may keep. */
export interface AssetsConfig {
  /** `disk`: a folder (`dir`); `s3`: an S3-compatible bucket. */
  readonly store: 'disk' | 's3';
  /** The folder of the disk store; uploads are spooled in it (`.incoming`) whatever the store. */
  readonly dir: string;
  /** What one account's assets may add up to, in bytes. */
  readonly accountBytes: number;
  readonly s3: S3Config;
}

export interface S3Config {
  /** An S3-compatible endpoint (`http://127.0.0.1:9000`); unset: AWS's own for the region. */
  readonly endpoint: string | undefined;
  readonly bucket: string | undefined;
  readonly region: string;
  /** Bucket in the path rather than the host name, as most S3-compatible servers want. */
  readonly forcePathStyle: boolean;
}

export interface HistoryConfig {
  /** How many of each project's newest revisions are kept; older ones answer 404. */
  readonly revisions: number;
}

/** The live changes (`GET /projects/<p>/events`). */
export interface EventsConfig {
  /** How long a stream stays silent at most: then a comment line keeps proxies from closing it. */
  readonly heartbeatMs: number;
  /** What a stream that does not read may leave unsent before it is cut off. */
  readonly maxUnsentBytes: number;
}

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
export const LOG_LEVELS: readonly LogLevel[] = [
  'fatal',
  'error',
  'warn',
  'info',
  'debug',
  'trace',
  'silent',
];

export interface DatabaseConfig {
  /** An external PostgreSQL; `undefined` starts the embedded one. */
  readonly url: string | undefined;
  readonly embedded: { readonly dataDir: string; readonly port: number };
  readonly poolSize: number;
  /** Upper bound for connecting, waiting for a pooled connection and running one statement. */
  readonly timeoutMs: number;
  readonly migrateOnStart: boolean;
}

/** Deadlines of the HTTP server: no client holds a connection or the shutdown forever. */
export interface HttpConfig {
  /** From a request's first byte until its headers are in. */
  readonly headersTimeoutMs: number;
  /** From a request's first byte until its whole body is in (a trickling body is cut off). */
  readonly requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open between two requests. */
  readonly keepAliveTimeoutMs: number;
  /** A connection on which nothing at all moves for this long is closed. */
  readonly idleTimeoutMs: number;
  /** After SIGTERM, how long requests in flight may take before the process exits anyway. */
  readonly shutdownGraceMs: number;
}

export interface AuthConfig {
  readonly tokenTtlSeconds: number;
  readonly signUpEnabled: boolean;
}

/** Fixed-window request budgets (see common/throttling). */
export interface RateLimitConfig {
  /** `false` lets every request through and sends no RateLimit-* headers (benchmarks). */
  readonly enabled: boolean;
  readonly windowSeconds: number;
  /** Requests per window per account, for calls with a bearer token. */
  readonly accountMax: number;
  /** Requests per window per client address, for sign-up and token. */
  readonly anonymousMax: number;
  /** Opens of share links per window per client address. */
  readonly sharedMax: number;
}

export interface RedisConfig {
  /**
   * Where the rate-limit and failed-sign-in counters live, shared by every instance;
   * `undefined` keeps them in this process's memory.
   */
  readonly url: string | undefined;
  /** Put before every key, so that several deployments (or test runs) can share one Redis. */
  readonly keyPrefix: string;
}

/** Injection token of the AppConfig. */
export const APP_CONFIG = Symbol('APP_CONFIG');
