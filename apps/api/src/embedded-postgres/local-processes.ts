import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

export type ProcessState = 'gone' | 'running' | 'running-as-another-user';

/** Whether `pid` names a running process: a zombie (exited, not yet reaped) is gone. */
export async function processState(pid: number): Promise<ProcessState> {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? 'running-as-another-user' : 'gone';
  }
  const stat = await readProcStat(pid);
  return stat?.state === 'Z' ? 'gone' : 'running';
}

export interface ProcessInfo {
  /** Its command line, one argument per element. */
  readonly argv: readonly string[];
  readonly parent: number;
}

/**
 * The command line and parent of a running process: from /proc where there is one (Linux),
 * else from `ps` (macOS), whose command line is split at white space (so a path with a space
 * in it does not match what it names); undefined when neither tells.
 */
export async function processInfo(pid: number): Promise<ProcessInfo | undefined> {
  const stat = await readProcStat(pid);
  if (stat !== undefined) {
    try {
      const argv = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
      if (argv.at(-1) === '') argv.pop();
      return { argv, parent: stat.parent };
    } catch {
      return undefined;
    }
  }
  try {
    const { stdout } = await run('ps', ['-o', 'ppid=', '-o', 'command=', '-p', String(pid)]);
    const match = /^\s*(\d+)\s+([\s\S]*\S)\s*$/.exec(stdout);
    return match ? { argv: match[2].split(/\s+/), parent: Number(match[1]) } : undefined;
  } catch {
    return undefined;
  }
}

async function readProcStat(pid: number): Promise<{ state: string; parent: number } | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // After the command name in parentheses (which may hold anything): the state, the parent.
    const [state, parent] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state, parent: Number(parent) };
  } catch {
    return undefined;
  }
}

/** Resolves once `pid` is gone, or with false after `timeoutMs`. */
export async function waitUntilGone(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while ((await processState(pid)) !== 'gone') {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}
