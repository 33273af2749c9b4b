import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { freePort } from '../../support/free-port';
import { ensureBuilt, repoRoot } from './build';

export interface ServiceExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** The built service running in a child process, listening on 127.0.0.1:`port`. */
export interface ServiceProcess {
  readonly port: number;
  readonly baseUrl: string;
  readonly pid: number;
  /** Settles when the process has exited (never rejects). */
  readonly exited: Promise<ServiceExit>;
  /** Whether the process is still running. */
  running(): boolean;
  /** Everything it wrote to stdout and stderr so far (for failure messages). */
  output(): string;
  signal(signal: NodeJS.Signals): void;
  /** The exit, or undefined if the process is still running after `timeoutMs`. */
  exitWithin(timeoutMs: number): Promise<ServiceExit | undefined>;
  /** SIGTERM, then SIGKILL if it has not exited after `graceMs`; resolves once it has exited. */
  stop(graceMs?: number): Promise<ServiceExit>;
}

const started = new Set<ServiceProcess>();

// The variables the service reads (load-config.ts, plus the rate limiter being added): only
// the test decides them, never the environment of the test run or a .env file.
const BASE_ENV: Record<string, string> = {
  HOST: '127.0.0.1',
  LOG_LEVEL: 'info',
  MIGRATE_ON_START: 'false',
  DATABASE_POOL_SIZE: '10',
  DATABASE_TIMEOUT_MS: '5000',
  SIGNUP_ENABLED: 'true',
  CORS_ORIGINS: '*',
  TOKEN_TTL_SECONDS: '3600',
  RATE_LIMIT_ENABLED: 'false',
};
const INHERITED = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ'];

/**
 * Where the service finds its database: DATABASE_URL, or a folder and a port of its own for the
 * embedded PostgreSQL (never the default .data/postgres of the checkout).
 */
export type ServiceEnv = Record<string, string> &
  ({ DATABASE_URL: string } | { EMBEDDED_PG_DATA_DIR: string; EMBEDDED_PG_PORT: string });

/** Builds the service if needed and spawns it with `env` (only) on `port`. */
async function spawnService(env: ServiceEnv, port: number): Promise<ServiceProcess> {
  const entry = await ensureBuilt();
  const childEnv: Record<string, string> = { ...BASE_ENV, ...env, PORT: String(port) };
  for (const name of INHERITED) {
    const value = process.env[name];
    if (value !== undefined) childEnv[name] = value;
  }
  const child = spawn(process.execPath, [entry], {
    cwd: repoRoot(),
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const service = wrap(child, port);
  started.add(service);
  void service.exited.then(() => started.delete(service));
  return service;
}

/**
 * Builds the service if needed and starts it on a free port; resolves once /health/live answers.
 */
export async function startService(
  env: ServiceEnv,
  options: { port?: number; readyTimeoutMs?: number } = {},
): Promise<ServiceProcess> {
  const service = await spawnService(env, options.port ?? (await freePort()));
  try {
    await waitUntilLive(service, options.readyTimeoutMs ?? 30_000);
  } catch (error) {
    await service.stop(1000);
    throw error;
  }
  return service;
}

/**
 * Starts the service for a start that must fail: resolves with how it exited and what it wrote,
 * or rejects if it is still running after `timeoutMs` (then it is stopped).
 */
export async function runUntilExit(
  env: ServiceEnv,
  options: { port?: number; timeoutMs?: number } = {},
): Promise<ServiceExit & { output: string }> {
  const service = await spawnService(env, options.port ?? (await freePort()));
  const exit = await service.exitWithin(options.timeoutMs ?? 120_000);
  if (exit === undefined) {
    await service.stop(1000);
    throw new Error(`the service kept running:\n${service.output()}`);
  }
  return { ...exit, output: service.output() };
}

/** Stops every service process still running (for afterAll/afterEach, also after a failure). */
export async function stopAllServices(): Promise<void> {
  await Promise.all([...started].map((service) => service.stop(2000)));
}

function wrap(child: ChildProcess, port: number): ServiceProcess {
  const chunks: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  let exit: ServiceExit | undefined;
  const exited = new Promise<ServiceExit>((resolve) => {
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      resolve(exit);
    });
    child.once('error', (error) => {
      chunks.push(`spawn error: ${error.message}\n`);
      exit = { code: null, signal: null };
      resolve(exit);
    });
  });
  const service: ServiceProcess = {
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    pid: child.pid ?? -1,
    exited,
    running: () => exit === undefined,
    output: () => chunks.join(''),
    signal: (signal) => {
      if (exit === undefined) child.kill(signal);
    },
    exitWithin: async (timeoutMs) => {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), timeoutMs);
      });
      try {
        return await Promise.race([exited, timedOut]);
      } finally {
        clearTimeout(timer);
      }
    },
    stop: async (graceMs = 10_000) => {
      if (exit !== undefined) return exit;
      child.kill('SIGTERM');
      if ((await service.exitWithin(graceMs)) === undefined) child.kill('SIGKILL');
      return exited;
    },
  };
  return service;
}

/**
 * Waits until GET /health/live answers 200. There is no event for "listening" other than the
 * port starting to accept connections (the log format is not a contract), so the port is tried
 * every 50 ms until the deadline; an exit of the process ends the wait at once.
 */
async function waitUntilLive(service: ServiceProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!service.running()) {
      throw new Error(
        `the service exited (${JSON.stringify(await service.exited)}) before listening:\n${service.output()}`,
      );
    }
    if ((await probe(service.port, '/health/live')) === 200) return;
    await Promise.race([new Promise((resolve) => setTimeout(resolve, 50)), service.exited]);
  }
  throw new Error(`the service did not listen within ${timeoutMs} ms:\n${service.output()}`);
}

/** The status of GET `path`, or undefined when the connection fails. One connection, no reuse. */
export function probe(port: number, path: string, timeoutMs = 5000): Promise<number | undefined> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET', agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
      res.on('error', () => resolve(undefined));
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve(undefined));
    req.end();
  });
}
