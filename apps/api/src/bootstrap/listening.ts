import { StartupError } from '../config/startup-error';
import { listenError } from '../common/net/listen-probe';

/** The settings that say where a listener listens: the API's, or the metrics' own. */
export interface ListenSettings {
  readonly host: string;
  readonly port: string;
}

const API: ListenSettings = { host: 'HOST', port: 'PORT' };

/** What to do, by the reason why a listener cannot listen. */
const CANNOT_LISTEN: Readonly<
  Record<string, (host: string, port: number, set: ListenSettings) => string>
> = {
  EADDRINUSE: (host, port, set) =>
    `Port ${port} on ${host} is in use by another program: stop that program, or set ${set.port} to a free port.`,
  EACCES: (host, port, set) =>
    `Port ${port} on ${host} needs privileges this process does not have: set ${set.port} to a port above 1023.`,
  EADDRNOTAVAIL: (host, _port, set) =>
    `${set.host} ${host} is no address of this machine: set ${set.host} to one of its addresses (127.0.0.1, or 0.0.0.0 for all).`,
  ENOTFOUND: (host, _port, set) =>
    `${set.host} ${host} is no address of this machine: set ${set.host} to one of its addresses (127.0.0.1, or 0.0.0.0 for all).`,
};

/** What to do when a port cannot be had, or the error itself when it is something else. */
export function whyNotListening(
  error: unknown,
  host: string,
  port: number,
  settings: ListenSettings = API,
): unknown {
  const say = CANNOT_LISTEN[(error as NodeJS.ErrnoException).code ?? ''];
  return say === undefined ? error : new StartupError(say(host, port, settings));
}

/** Refuses a start whose port cannot be had, saying what to do (port 0: any will do). */
export async function assertCanListen(
  host: string,
  port: number,
  settings: ListenSettings = API,
): Promise<void> {
  const error = port === 0 ? undefined : await listenError(host, port);
  if (error !== undefined) throw whyNotListening(error, host, port, settings);
}
