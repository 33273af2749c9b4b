import { readFile, realpath, rm } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { StartupError } from '../config/startup-error';
import { processInfo, processState, waitUntilGone } from './local-processes';
import { WATCHDOG_NAME } from './postgres-watchdog';

/** How long PostgreSQL may take to finish a fast shutdown (a checkpoint) before it is forced. */
const FAST_SHUTDOWN_MS = 60_000;
/** How long an immediate shutdown (SIGQUIT) may take. */
const IMMEDIATE_SHUTDOWN_MS = 10_000;
/**
 * How long a server whose watchdog is still there may take to begin stopping: its service died
 * this moment, and the watchdog has not read the end of the pipe yet. Past this it is in use.
 */
const WATCHDOG_NOTICE_MS = 5_000;

/** The lines of `postmaster.pid` (PostgreSQL's lock file) that tell which server holds a folder. */
interface DataDirLock {
  readonly pid: number;
  readonly dataDir: string;
  readonly port: number;
  /** `starting`, `ready`, `stopping` or `standby` (PostgreSQL 10 and later). */
  readonly status: string;
}

async function readLock(dataDir: string): Promise<DataDirLock | undefined> {
  let text: string;
  try {
    text = await readFile(join(dataDir, 'postmaster.pid'), 'utf8');
  } catch {
    return undefined;
  }
  const lines = text.split('\n');
  return {
    pid: Number(lines[0]),
    dataDir: lines[1] ?? '',
    port: Number(lines[3]),
    status: (lines[7] ?? '').trim(),
  };
}

async function samePath(a: string, b: string): Promise<boolean> {
  const real = (path: string) => realpath(path).catch(() => resolve(path));
  return (await real(a)) === (await real(b));
}

/** The value after `flag` on a command line (`-D <folder>`), if given. */
function argumentOf(argv: readonly string[], flag: string): string | undefined {
  const index = argv.indexOf(flag);
  return index >= 0 ? argv[index + 1] : undefined;
}

/**
 * Whether the command line is a PostgreSQL server of `dataDir`, the one that wrote `lock`: the
 * `postgres` binary, with `-D` naming the folder, and the lock's port if it names one.
 */
async function isPostgresOf(
  argv: readonly string[],
  dataDir: string,
  lock: DataDirLock,
): Promise<boolean> {
  const folder = argumentOf(argv, '-D');
  const port = argumentOf(argv, '-p');
  return (
    ['postgres', 'postmaster'].includes(basename(argv[0] ?? '')) &&
    folder !== undefined &&
    (await samePath(folder, dataDir)) &&
    (await samePath(lock.dataDir, dataDir)) &&
    (port === undefined || Number(port) === lock.port)
  );
}

function inUse(dataDir: string, pid: number): StartupError {
  return new StartupError(
    `The data folder ${dataDir} is in use by the PostgreSQL of another running instance of this service (pid ${pid}): stop that instance first, or set EMBEDDED_PG_DATA_DIR and EMBEDDED_PG_PORT to use another folder and port.`,
  );
}

/**
 * Makes way in `dataDir` for a new embedded PostgreSQL, after a hard stop of the service that
 * ran one there. By its lock file (`postmaster.pid`: the pid, the folder, the port), the server
 * holding the folder is found and told apart:
 * - none, or a pid that is gone or now names another program: the lock file is stale, removed;
 * - a PostgreSQL of this folder under a watchdog of this service: its service is alive, or died
 *   a moment ago and the watchdog is stopping it; it is waited for, and if it goes on serving,
 *   the folder is in use (StartupError);
 * - a PostgreSQL of this folder without one (left behind by a service that had none, or whose
 *   watchdog was killed too): stopped, fast (SIGINT), then immediately (SIGQUIT) if need be.
 * A process that cannot be identified is never touched: the start stops with what to do.
 */
export async function clearLeftBehindServer(
  dataDir: string,
  notice: (line: string) => void,
): Promise<void> {
  const lock = await readLock(dataDir);
  if (lock === undefined || !Number.isInteger(lock.pid) || lock.pid <= 0) return;
  const state = await processState(lock.pid);
  if (state === 'running-as-another-user') {
    throw new StartupError(
      `The data folder ${dataDir} is locked by process ${lock.pid} of another user: stop it, or set EMBEDDED_PG_DATA_DIR to a folder of your own.`,
    );
  }
  const info = state === 'running' ? await processInfo(lock.pid) : undefined;
  if (state === 'running' && info === undefined) {
    throw new StartupError(
      `The data folder ${dataDir} is locked by process ${lock.pid}, which cannot be identified: stop it if it is a PostgreSQL of that folder (else remove ${join(dataDir, 'postmaster.pid')}), or set EMBEDDED_PG_DATA_DIR to another folder.`,
    );
  }
  if (info === undefined || !(await isPostgresOf(info.argv, dataDir, lock))) {
    await rm(join(dataDir, 'postmaster.pid'), { force: true });
    notice(
      `Removed the lock file of a PostgreSQL that no longer runs (pid ${lock.pid}) from ${dataDir}`,
    );
    return;
  }

  const parent = await processInfo(info.parent);
  if (parent?.argv.includes(WATCHDOG_NAME)) {
    // Its service died a moment ago (the watchdog is stopping it), or is alive and using it.
    if (await waitUntilGone(lock.pid, WATCHDOG_NOTICE_MS)) return;
    const stopping = (await readLock(dataDir))?.status === 'stopping';
    if (stopping && (await waitUntilGone(lock.pid, FAST_SHUTDOWN_MS))) return;
    throw inUse(dataDir, lock.pid);
  }

  notice(
    `Stopping the PostgreSQL left behind on ${dataDir} (pid ${lock.pid}, port ${lock.port}) by a service that stopped without it`,
  );
  process.kill(lock.pid, 'SIGINT');
  let gone = await waitUntilGone(lock.pid, FAST_SHUTDOWN_MS);
  if (!gone) {
    process.kill(lock.pid, 'SIGQUIT');
    gone = await waitUntilGone(lock.pid, IMMEDIATE_SHUTDOWN_MS);
  }
  // Once it is gone, a lock file it left (after an immediate shutdown) is found stale.
  if (gone) return clearLeftBehindServer(dataDir, notice);
  throw new StartupError(
    `The PostgreSQL left behind on ${dataDir} (pid ${lock.pid}) does not stop: end it yourself (kill -9 ${lock.pid}), then start again.`,
  );
}
