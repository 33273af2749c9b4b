import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { onCleanup, onExitKill } from './cleanup';

export interface ServerProcess {
  readonly name: string;
  /** What its database sessions call themselves (pg_stat_activity.application_name). */
  readonly applicationName: string;
  readonly url: string;
  readonly pid: number;
  /** Ends the process (SIGTERM, then SIGKILL of its process group after a grace period). */
  stop(): Promise<void>;
}

export interface StartOptions {
  name: string;
  applicationName: string;
  /** Node arguments: the entry script and any flags before it. */
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  port: number;
  /** Seconds to wait for GET /health/ready (an embedded PostgreSQL's first start takes a while). */
  readyTimeout?: number;
}

/**
 * Starts a Node server as its own process group, so that a Ctrl-C in the terminal reaches only
 * the bench, which then stops its children in order (the service stops its embedded PostgreSQL
 * itself). Warnings and errors the server prints are passed through, prefixed with its name.
 */
export async function startServer(options: StartOptions): Promise<ServerProcess> {
  const child = spawn(process.execPath, options.args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${options.name} did not start`);
  const output: string[] = [];
  const relay = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (line.trim() === '') continue;
      output.push(line);
      if (output.length > 50) output.shift();
      console.error(`[${options.name}] ${line}`);
    }
  };
  child.stdout?.on('data', relay);
  child.stderr?.on('data', relay);
  let stopped: Promise<void> | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code, signal) => {
      if (stopped === undefined) {
        // Nobody here asked for it: say so loudly, the next requests will fail.
        console.error(`[${options.name}] EXITED UNEXPECTEDLY (code ${code}, signal ${signal})`);
      }
      resolve(code);
    }),
  );
  const forget = onExitKill(() => killGroup(pid, 'SIGKILL'));
  const stop = () => {
    stopped ??= stopChild(child, pid, exited).finally(forget);
    return stopped;
  };
  onCleanup(`stop ${options.name}`, stop);

  const url = `http://127.0.0.1:${options.port}`;
  await waitReady(url, options.readyTimeout ?? 120, exited, () => output.join('\n'));
  return { name: options.name, applicationName: options.applicationName, url, pid, stop };
}

async function waitReady(
  url: string,
  timeoutSeconds: number,
  exited: Promise<number | null>,
  output: () => string,
): Promise<void> {
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));
  const deadline = Date.now() + timeoutSeconds * 1000;
  while (Date.now() < deadline) {
    if (exitCode !== undefined) {
      throw new Error(`${url} exited (code ${exitCode}) before it was ready:\n${output()}`);
    }
    try {
      const response = await fetch(`${url}/health/ready`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await sleep(200);
  }
  throw new Error(`${url} was not ready after ${timeoutSeconds} s:\n${output()}`);
}

async function stopChild(
  child: ChildProcess,
  pid: number,
  exited: Promise<number | null>,
): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const graceful = await Promise.race([exited.then(() => true), sleep(20_000, false)]);
  if (!graceful) {
    // The whole group: with it go the embedded PostgreSQL processes the service started.
    killGroup(pid, 'SIGKILL');
    await exited;
  }
}

function killGroup(pid: number, signal: NodeJS.Signals) {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/** Resident memory of a process in MiB, from /proc (Linux only; 0 elsewhere). */
export function residentMiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Peak RSS over a window. VmHWM is the peak since the process started (start-up and earlier
 * scenarios included), so each scenario samples VmRSS every 50 ms instead.
 */
export class RssSampler {
  private peak = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly pid: number) {
    this.sample();
    this.timer = setInterval(() => this.sample(), 50);
  }

  private sample() {
    this.peak = Math.max(this.peak, residentMiB(this.pid, 'VmRSS'));
  }

  stop(): number {
    clearInterval(this.timer);
    this.sample();
    return this.peak;
  }
}
