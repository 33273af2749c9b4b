import { ConfigError, loadConfig } from './load-config';

function problemsOf(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('uses the documented defaults when nothing is set', () => {
    expect(loadConfig({})).toEqual({
      host: '127.0.0.1',
      port: 3000,
      logLevel: 'info',
      database: {
        url: undefined,
        embedded: { dataDir: '.data/postgres', port: 54329 },
        poolSize: 20,
        timeoutMs: 5000,
        migrateOnStart: true,
      },
      auth: { tokenTtlSeconds: 3600, signUpEnabled: true },
      corsOrigins: true,
      rateLimit: {
        enabled: true,
        windowSeconds: 60,
        accountMax: 1200,
        anonymousMax: 30,
        sharedMax: 120,
      },
      redis: { url: undefined, keyPrefix: 'layout:' },
      http: {
        headersTimeoutMs: 10_000,
        requestTimeoutMs: 30_000,
        keepAliveTimeoutMs: 5_000,
        idleTimeoutMs: 60_000,
        shutdownGraceMs: 10_000,
      },
      heapGrowingPercent: 50,
      readCacheBytes: 32 * 1024 * 1024,
      requireIfMatch: false,
      history: { revisions: 1000 },
      events: { heartbeatMs: 10_000, maxUnsentBytes: 256 * 1024 },
      metrics: { port: undefined, host: '127.0.0.1' },
      tracing: { endpoint: undefined, serviceName: 'proposal-layout-service' },
      assets: {
        store: 'disk',
        dir: '.data/assets',
        accountBytes: 1024 ** 3,
        s3: { endpoint: undefined, bucket: undefined, region: 'us-east-1', forcePathStyle: true },
      },
    });
  });

  it('reads the metrics listener and the traces collector', () => {
    expect(
      loadConfig({
        HOST: '0.0.0.0',
        METRICS_PORT: '9464',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_SERVICE_NAME: 'layout-eu',
      }),
    ).toMatchObject({
      metrics: { port: 9464, host: '0.0.0.0' },
      tracing: { endpoint: 'http://collector:4318', serviceName: 'layout-eu' },
    });
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5' }).metrics).toEqual({
      port: 9464,
      host: '10.0.0.5',
    });
  });

  it('refuses a metrics port that is the API port, and a collector that is no HTTP URL', () => {
    const { problems } = problemsOf({
      PORT: '8080',
      METRICS_PORT: '8080',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'grpc://user:secret@collector:4317',
    });
    expect(problems).toEqual([
      expect.stringContaining('OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL'),
      expect.stringContaining('METRICS_PORT must differ from PORT'),
    ]);
    // A URL may hold credentials: it is never echoed.
    expect(problems.join(' ')).not.toContain('secret');
    expect(problemsOf({ METRICS_PORT: 'nine' }).problems).toEqual([
      expect.stringContaining('METRICS_PORT must be an integer from 0 to 65535'),
    ]);
  });

  it('reads the asset store, and needs a bucket for S3', () => {
    const config = loadConfig({
      ASSET_STORE: 's3',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_BUCKET: 'assets',
      S3_REGION: 'eu-west-1',
      ASSET_ACCOUNT_BYTES: '1000',
    });
    expect(config.assets).toEqual({
      store: 's3',
      dir: '.data/assets',
      accountBytes: 1000,
      s3: {
        endpoint: 'http://127.0.0.1:9000',
        bucket: 'assets',
        region: 'eu-west-1',
        forcePathStyle: true,
      },
    });
    expect(() => loadConfig({ ASSET_STORE: 's3' })).toThrow(/S3_BUCKET must name the bucket/);
    expect(() => loadConfig({ S3_ENDPOINT: 'ftp://x' })).toThrow(/S3_ENDPOINT must be an http/);
  });

  it('treats empty and blank values as unset', () => {
    const config = loadConfig({ PORT: '', LOG_LEVEL: '   ', SIGNUP_ENABLED: '' });
    expect(config.port).toBe(3000);
    expect(config.logLevel).toBe('info');
    expect(config.auth.signUpEnabled).toBe(true);
  });

  it('reads valid values', () => {
    const config = loadConfig({
      HOST: '0.0.0.0',
      PORT: ' 8080 ',
      LOG_LEVEL: 'debug',
      DATABASE_URL: 'postgresql://app:pw@db.internal:5432/layout',
      DATABASE_POOL_SIZE: '8',
      MIGRATE_ON_START: 'no',
      TOKEN_TTL_SECONDS: '600',
      SIGNUP_ENABLED: 'OFF',
      CORS_ORIGINS: 'https://editor.example.com, http://localhost:5173',
      HEAP_GROWING_PERCENT: '0',
      READ_CACHE_BYTES: '0',
      REQUIRE_IF_MATCH: 'true',
    });
    expect(config).toMatchObject({
      host: '0.0.0.0',
      port: 8080,
      logLevel: 'debug',
      database: {
        url: 'postgresql://app:pw@db.internal:5432/layout',
        poolSize: 8,
        migrateOnStart: false,
      },
      auth: { tokenTtlSeconds: 600, signUpEnabled: false },
      corsOrigins: ['https://editor.example.com', 'http://localhost:5173'],
      heapGrowingPercent: 0,
      readCacheBytes: 0,
      requireIfMatch: true,
    });
  });

  it.each([['true'], ['1'], ['yes'], ['on'], ['TRUE']])('reads %s as true', (value) => {
    expect(loadConfig({ SIGNUP_ENABLED: value }).auth.signUpEnabled).toBe(true);
  });

  it('"*" opens CORS to any origin', () => {
    expect(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins).toBe(true);
  });

  it('collects every bad value into one ConfigError', () => {
    const error = problemsOf({
      PORT: 'eighty',
      MIGRATE_ON_START: 'maybe',
      LOG_LEVEL: 'verbose',
      CORS_ORIGINS: 'https://ok.example.com,not-an-origin',
      DATABASE_URL: 'mysql://root:s3cr3t-pw@db.internal/app',
    });
    expect(error.problems).toHaveLength(5);
    for (const name of ['PORT', 'MIGRATE_ON_START', 'LOG_LEVEL', 'CORS_ORIGINS', 'DATABASE_URL']) {
      expect(error.problems.filter((problem) => problem.startsWith(`${name} `))).toHaveLength(1);
      expect(error.message).toContain(name);
    }
    expect(error.message).toContain('not-an-origin');
    expect(error.message).not.toContain('s3cr3t-pw');
    expect(error.message).not.toContain('mysql://');
  });

  it.each([
    ['a URL of another scheme', 'mysql://user:hunter2@host/db'],
    ['not a URL at all', 'user:hunter2@host/db'],
    ['a postgres URL without host', 'postgresql://user:hunter2@/db'],
    ['a postgres URL with a bad port', 'postgres://user:hunter2@host:99999/db'],
  ])('refuses DATABASE_URL as %s without echoing its password', (_what, url) => {
    const error = problemsOf({ DATABASE_URL: url });
    expect(error.problems).toEqual([expect.stringMatching(/^DATABASE_URL /)]);
    expect(error.message).not.toContain('hunter2');
  });

  it.each([['-1'], ['65536'], ['3.5'], ['0x50'], ['80a']])('refuses PORT=%s', (port) => {
    expect(problemsOf({ PORT: port }).problems).toEqual([expect.stringMatching(/^PORT /)]);
  });

  it.each([
    ['TOKEN_TTL_SECONDS', '59'],
    ['DATABASE_POOL_SIZE', '0'],
    ['DATABASE_TIMEOUT_MS', '99'],
    ['EMBEDDED_PG_PORT', '0'],
    ['EVENTS_HEARTBEAT_MS', '15000'],
  ])('refuses %s=%s (out of range)', (name, value) => {
    expect(problemsOf({ [name]: value }).problems).toEqual([
      expect.stringMatching(new RegExp(`^${name} `)),
    ]);
  });

  it('reads the rate limits and Redis', () => {
    const config = loadConfig({
      RATE_LIMIT_ENABLED: 'false',
      RATE_LIMIT_WINDOW_SECONDS: '10',
      RATE_LIMIT_ACCOUNT_MAX: '5',
      RATE_LIMIT_ANONYMOUS_MAX: '2',
      RATE_LIMIT_SHARED_MAX: '7',
      REDIS_URL: 'redis://:s3cret@cache.internal:6380/2',
      REDIS_KEY_PREFIX: 'layout-staging:',
    });
    expect(config.rateLimit).toEqual({
      enabled: false,
      windowSeconds: 10,
      accountMax: 5,
      anonymousMax: 2,
      sharedMax: 7,
    });
    expect(config.redis).toEqual({
      url: 'redis://:s3cret@cache.internal:6380/2',
      keyPrefix: 'layout-staging:',
    });
  });

  it('accepts rediss:// (TLS) and a URL without a database', () => {
    expect(loadConfig({ REDIS_URL: 'rediss://cache.internal' }).redis.url).toBe(
      'rediss://cache.internal',
    );
  });

  it.each([
    ['another scheme', 'http://user:hunter2@cache.internal:6379'],
    ['not a URL at all', 'user:hunter2@cache.internal'],
    ['no host', 'redis://:hunter2@/0'],
    ['a database that is not a number', 'redis://:hunter2@cache.internal:6379/cache'],
  ])('refuses REDIS_URL as %s without echoing its password', (_what, url) => {
    const error = problemsOf({ REDIS_URL: url });
    expect(error.problems).toEqual([expect.stringMatching(/^REDIS_URL /)]);
    expect(error.message).not.toContain('hunter2');
  });

  it.each([
    ['RATE_LIMIT_WINDOW_SECONDS', '0'],
    ['RATE_LIMIT_WINDOW_SECONDS', '86401'],
    ['RATE_LIMIT_ACCOUNT_MAX', '0'],
    ['RATE_LIMIT_ACCOUNT_MAX', 'lots'],
    ['RATE_LIMIT_ANONYMOUS_MAX', '-3'],
    ['RATE_LIMIT_ENABLED', 'sometimes'],
    ['REDIS_KEY_PREFIX', 'has spaces:'],
    ['REDIS_KEY_PREFIX', 'x'.repeat(65)],
  ])('refuses %s=%s', (name, value) => {
    expect(problemsOf({ [name]: value }).problems).toEqual([
      expect.stringMatching(new RegExp(`^${name} `)),
    ]);
  });

  it.each([['https://editor.example.com/'], ['editor.example.com'], ['https://a.example/path']])(
    'refuses the CORS origin %s',
    (origin) => {
      expect(problemsOf({ CORS_ORIGINS: origin }).problems).toEqual([
        expect.stringMatching(/^CORS_ORIGINS /),
      ]);
    },
  );

  it('refuses a headers timeout longer than the request timeout', () => {
    expect(() =>
      loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '20000', HTTP_REQUEST_TIMEOUT_MS: '10000' }),
    ).toThrow('HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS');
  });
});
