import { spawn } from 'node:child_process';

/** The name the watchdog runs under (its `$0`): how a later start recognises one. */
export const WATCHDOG_NAME = 'layout-postgres-watchdog';

/**
 * The parent of the embedded PostgreSQL, a POSIX shell script: it starts PostgreSQL, holds the
 * reading end of a pipe whose writing end only the service holds, and when that pipe closes
 * (the service ended it to stop the database, or died: SIGKILL, the out-of-memory killer, a
 * crash all close a process's files) it asks PostgreSQL for a fast shutdown (SIGINT) and exits
 * with it. So the database never outlives the service by more than its own shutdown. A separate
 * reader waits on the pipe, so that the script also ends when PostgreSQL exits by itself.
 * Signals to the script itself are passed on the same way.
 */
const WATCHDOG_SCRIPT = `
exec 3<&0
"$@" </dev/null 3<&- &
postgres=$!
{
  while read -r _; do :; done
  kill -INT "$postgres" 2>/dev/null
} <&3 &
reader=$!
exec 3<&-
trap 'kill -INT "$postgres" 2>/dev/null' INT TERM HUP
while :; do
  wait "$postgres"
  status=$?
  kill -0 "$postgres" 2>/dev/null || break
done
kill "$reader" 2>/dev/null
exit "$status"
`;

export interface WatchedCommand {
  readonly command: string;
  readonly args: readonly string[];
  /** As root: the user and group PostgreSQL runs as. */
  readonly uid?: number;
  readonly gid?: number;
  /** Receives what the process writes to standard error, line by line. */
  readonly onLog: (line: string) => void;
}

export interface WatchedProcess {
  /** Settles with the exit code (null after a signal) when the watchdog has exited. */
  readonly exited: Promise<number | null>;
  /** The last lines written to standard error, for a failure message. */
  lastLines(): string[];
  /** Closes the pipe (PostgreSQL shuts down) and resolves once it and its watchdog are gone. */
  stop(): Promise<void>;
}

const KEPT_LINES = 20;

/**
 * Starts `command` under the watchdog, in a session of its own so that a terminal's signals
 * (Ctrl-C, the terminal closing) reach the service only, which stops the database after the
 * requests in flight, rather than the database at once.
 */
export function startWatched(watched: WatchedCommand): WatchedProcess {
  const child = spawn(
    'sh',
    ['-c', WATCHDOG_SCRIPT, WATCHDOG_NAME, watched.command, ...watched.args],
    {
      stdio: ['pipe', 'ignore', 'pipe'],
      detached: true,
      ...(watched.uid === undefined ? {} : { uid: watched.uid, gid: watched.gid }),
    },
  );
  const lines: string[] = [];
  let partial = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop() ?? '';
    for (const line of parts.map((part) => part.trim()).filter((part) => part !== '')) {
      lines.push(line);
      if (lines.length > KEPT_LINES) lines.shift();
      watched.onLog(line);
    }
  });
  // The pipe is only ever closed, never written to: an error on it means the watchdog is gone.
  child.stdin.on('error', () => undefined);
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', (error) => {
      lines.push(`could not start the watchdog: ${error.message}`);
      resolve(null);
    });
  });
  return {
    exited,
    lastLines: () => [...lines],
    stop: async () => {
      child.stdin.end();
      await exited;
    },
  };
}
