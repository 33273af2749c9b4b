import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { arch, platform, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { processState, waitUntilGone } from '../../apps/api/src/embedded-postgres/local-processes';
import { freePort } from '../support/free-port';
import { type OwnPostgres, query, startOwnPostgres, testDatabaseUrl } from './support/databases';
import { JsonClient } from './support/http';
import {
  runUntilExit,
  type ServiceEnv,
  startService,
  stopAllServices,
} from './support/service-process';

// An embedded cluster is created, started and stopped several times: slow on a busy machine.
jest.setTimeout(300_000);

/** How long PostgreSQL may take to go once its service is gone: generous, not a measurement. */
const GONE_WITHIN_MS = 60_000;
const READY_WITHIN_MS = 180_000;

/** The pid in the lock file of the PostgreSQL running on `dataDir`. */
function postmasterOf(dataDir: string): number {
  return Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
}

/** Until the lock file of `dataDir` says a server of pid `pid` is ready. */
async function untilReady(dataDir: string, pid: number): Promise<void> {
  const deadline = Date.now() + READY_WITHIN_MS;
  for (;;) {
    let lines: string[] = [];
    try {
      lines = readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n');
    } catch {
      // not written yet
    }
    if (Number(lines[0]) === pid && lines[7]?.trim() === 'ready') return;
    if (Date.now() > deadline) throw new Error(`PostgreSQL ${pid} on ${dataDir} is not ready`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A PostgreSQL on `dataDir` with no watchdog, as an earlier version of the service started it
 * (its parent, the service, gone or not, is no watchdog of this one).
 */
async function startUnwatchedPostgres(dataDir: string, port: number): Promise<number> {
  const { postgres } = (await import(`@embedded-postgres/${platform()}-${arch()}`)) as {
    postgres: string;
  };
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }));
  const child = spawn(
    postgres,
    [
      '-D',
      dataDir,
      '-p',
      String(port),
      '-c',
      'unix_socket_directories=',
      '-c',
      'listen_addresses=127.0.0.1',
    ],
    {
      detached: true,
      stdio: 'ignore',
      ...(userInfo().uid === 0 ? { uid: id('-u'), gid: id('-g') } : {}),
    },
  );
  child.unref();
  if (child.pid === undefined) throw new Error('postgres did not start');
  await untilReady(dataDir, child.pid);
  return child.pid;
}

/**
 * The one line a refused start prints for a person, which says what to do: every other line
 * is a JSON log line, and none is a stack trace.
 */
function refusal(output: string): string {
  const lines = output.split('\n').filter((line) => line.trim() !== '');
  expect(lines.filter((line) => /^\s+at /.test(line))).toEqual([]);
  const plain = lines.filter((line) => {
    try {
      JSON.parse(line);
      return false;
    } catch {
      return true;
    }
  });
  expect(plain).toHaveLength(1);
  return plain[0];
}

describe('npm start after a hard stop, on the embedded PostgreSQL', () => {
  let folder: string;
  let dataDir: string;
  let env: ServiceEnv;
  const others: OwnPostgres[] = [];
  const holders: Server[] = [];

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'layout-hard-stop-'));
    // Walkable for the postgres user that runs the cluster as root, so that the cluster lives
    // here (not in a folder of its own under /var/tmp) and goes with this folder.
    await chmod(folder, 0o755);
    dataDir = join(folder, 'postgres');
    env = {
      EMBEDDED_PG_DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(await freePort()),
      MIGRATE_ON_START: 'true',
    };
  });

  afterAll(async () => {
    await stopAllServices();
    for (const holder of holders) holder.close();
    for (const other of others) await other.destroy();
    // A server a failed test left on the folder (a watchdog stops the service's own).
    try {
      const pid = postmasterOf(dataDir);
      if ((await processState(pid)) === 'running') process.kill(pid, 'SIGQUIT');
      await waitUntilGone(pid, GONE_WITHIN_MS);
    } catch {
      // no lock file: nothing runs there
    }
    await rm(folder, { recursive: true, force: true });
  });

  it('takes the PostgreSQL down with a service killed with SIGKILL, and starts again on the folder', async () => {
    const first = await startService(env, { readyTimeoutMs: READY_WITHIN_MS });
    const account = await new JsonClient(first.port).newAccount('hard-stop');
    const postgres = postmasterOf(dataDir);
    expect(await processState(postgres)).toBe('running');

    first.signal('SIGKILL');
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(await waitUntilGone(postgres, GONE_WITHIN_MS)).toBe(true);

    const second = await startService(env, { readyTimeoutMs: READY_WITHIN_MS });
    // The same folder: the account made before the kill signs in.
    const { username, password } = account;
    await new JsonClient(second.port).expect(200, 'POST', '/accounts/auth/token', {
      username,
      password,
    });
    const restarted = postmasterOf(dataDir);
    expect(restarted).not.toBe(postgres);
    expect(await second.stop()).toEqual({ code: 0, signal: null });
    expect(await waitUntilGone(restarted, GONE_WITHIN_MS)).toBe(true);
  });

  it('stops a PostgreSQL left behind on its folder without a watchdog, and never another server', async () => {
    const leftBehind = await startUnwatchedPostgres(dataDir, Number(env.EMBEDDED_PG_PORT));
    const service = await startService(env, { readyTimeoutMs: READY_WITHIN_MS });
    expect(await waitUntilGone(leftBehind, GONE_WITHIN_MS)).toBe(true);
    expect(service.output()).toContain(
      `Stopping the PostgreSQL left behind on ${dataDir} (pid ${leftBehind}`,
    );
    expect(postmasterOf(dataDir)).not.toBe(leftBehind);
    await new JsonClient(service.port).expect(200, 'GET', '/health/ready');
    expect(await service.stop()).toEqual({ code: 0, signal: null });

    // Another server, on a folder of its own, whose port the service is told to use: refused
    // with what to do, and left running.
    const other = await startOwnPostgres();
    others.push(other);
    const clash = await runUntilExit({ ...env, EMBEDDED_PG_PORT: String(other.port) });
    expect(clash.code).toBe(1);
    expect(refusal(clash.output)).toBe(
      `Port ${other.port}, where the embedded PostgreSQL listens, is in use by another program: stop that program, or set EMBEDDED_PG_PORT to a free port.`,
    );
    expect(await query(other.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });

  it('says in one sentence what to do when a start cannot proceed, and exits non-zero', async () => {
    const bad = await runUntilExit({
      DATABASE_URL: testDatabaseUrl(),
      LOG_LEVEL: 'loud',
      DATABASE_POOL_SIZE: 'many',
    });
    expect(bad.code).toBe(1);
    expect(refusal(bad.output)).toMatch(
      /^Fix the configuration \(the environment or \.env\) and start again: .*LOG_LEVEL.*; DATABASE_POOL_SIZE.*\.$/,
    );

    const holder = createServer();
    holders.push(holder);
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const held = (holder.address() as { port: number }).port;
    const portTaken = await runUntilExit({ DATABASE_URL: testDatabaseUrl() }, { port: held });
    expect(portTaken.code).toBe(1);
    expect(refusal(portTaken.output)).toBe(
      `Port ${held} on 127.0.0.1 is in use by another program: stop that program, or set PORT to a free port.`,
    );

    // The folder of a running instance: refused, and that instance keeps its database.
    const running = await startService(env, { readyTimeoutMs: READY_WITHIN_MS });
    const postgres = postmasterOf(dataDir);
    const second = await runUntilExit({ ...env, EMBEDDED_PG_PORT: String(await freePort()) });
    expect(second.code).toBe(1);
    expect(refusal(second.output)).toBe(
      `The data folder ${dataDir} is in use by the PostgreSQL of another running instance of this service (pid ${postgres}): stop that instance first, or set EMBEDDED_PG_DATA_DIR and EMBEDDED_PG_PORT to use another folder and port.`,
    );
    expect(await processState(postgres)).toBe('running');
    await new JsonClient(running.port).expect(200, 'GET', '/health/ready');
    await running.stop();
  });
});
