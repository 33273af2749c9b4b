import { StartupError } from '../common/errors/startup-error';
import { listenError } from '../common/net/listen-probe';

/** What to do, by the reason why the HTTP server cannot listen. */
const CANNOT_LISTEN: Readonly<Record<string, (host: string, port: number) => string>> = {
  EADDRINUSE: (host, port) =>
    `Port ${port} on ${host} is in use by another program: stop that program, or set PORT to a free port.`,
  EACCES: (host, port) =>
    `Port ${port} on ${host} needs privileges this process does not have: set PORT to a port above 1023.`,
  EADDRNOTAVAIL: (host) =>
    `HOST ${host} is no address of this machine: set HOST to one of its addresses (127.0.0.1, or 0.0.0.0 for all).`,
  ENOTFOUND: (host) =>
    `HOST ${host} is no address of this machine: set HOST to one of its addresses (127.0.0.1, or 0.0.0.0 for all).`,
};

/** What to do when the HTTP port cannot be had, or the error itself when it is something else. */
export function whyNotListening(error: unknown, host: string, port: number): unknown {
  const say = CANNOT_LISTEN[(error as NodeJS.ErrnoException).code ?? ''];
  return say === undefined ? error : new StartupError(say(host, port));
}

/** Refuses a start whose HTTP port cannot be had, saying what to do (port 0: any will do). */
export async function assertCanListen(host: string, port: number): Promise<void> {
  const error = port === 0 ? undefined : await listenError(host, port);
  if (error !== undefined) throw whyNotListening(error, host, port);
}
