import { type ChildProcess, spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { onCleanup, onExitKill } from './cleanup';

export interface ServerProcess {
  readonly name: string;
  readonly url: string;
  readonly pid: number;
  /** Ends the process (SIGTERM, then SIGKILL of its process group after a grace period). */
  stop(): Promise<void>;
}

export interface StartOptions {
  name: string;
  /** Node arguments: the entry script and any flags before it. */
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  port: number;
  /** What answers 200 once it is ready (the yardstick has only /health/live). */
  readyPath: string;
  /** Seconds to wait for it. */
  readyTimeout?: number;
}

/**
 * Starts a Node server as its own process group, so that a Ctrl-C in the terminal reaches only
 * the bench, which then stops its children in order. Warnings and errors the server prints are
 * passed through, prefixed with its name.
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
  await waitReady(`${url}${options.readyPath}`, options.readyTimeout ?? 120, exited, () =>
    output.join('\n'),
  );
  return { name: options.name, url, pid, stop };
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
      const response = await fetch(url);
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
    // The whole group: with it goes anything the server started.
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

const tools = new Set<ChildProcess>();
let toolsRegistered = false;

/**
 * Runs a command to its end (the yardstick's npm ci, seed.mjs, load.mjs) as its own process
 * group, like the servers; stopped with the rest on failure or Ctrl-C. Resolves with its
 * standard output; a non-zero exit rejects with the end of what it printed.
 */
export async function runTool(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<string> {
  if (!toolsRegistered) {
    toolsRegistered = true;
    onCleanup('stop the running tools', () => {
      for (const child of tools) if (child.pid !== undefined) killGroup(child.pid, 'SIGKILL');
    });
  }
  const child = spawn(command, args, {
    ...options,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${command} did not start`);
  tools.add(child);
  const forget = onExitKill(() => killGroup(pid, 'SIGKILL'));
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  }).finally(() => {
    tools.delete(child);
    forget();
  });
  if (code !== 0) {
    const tail = `${stdout}\n${stderr}`.trim().split('\n').slice(-20).join('\n');
    throw new Error(`${command} ${args.join(' ')} exited with ${code}:\n${tail}`);
  }
  return stdout;
}
