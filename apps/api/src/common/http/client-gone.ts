import { type EventEmitter } from 'node:events';

/** What watchClientGone needs of a request: its connection. */
export interface OnConnection {
  readonly raw: { readonly socket: (EventEmitter & { readonly destroyed: boolean }) | null };
}

export interface ClientWatch {
  /** Aborts when the client's connection closes. */
  readonly signal: AbortSignal;
  /** Stops watching: call it once the wait is over (a kept-alive connection serves many requests). */
  stop(): void;
}

/**
 * Watches the connection a request came on, for a request that must wait (for its account's
 * share of the database): a client that closed its connection will read no answer, so it
 * should not keep its place in line. `undefined` outside a request.
 */
export function watchClientGone(request: OnConnection | undefined): ClientWatch | undefined {
  const socket = request?.raw.socket;
  if (!socket) return undefined;
  const controller = new AbortController();
  if (socket.destroyed) {
    controller.abort();
    return { signal: controller.signal, stop: () => undefined };
  }
  const onClose = () => controller.abort();
  socket.once('close', onClose);
  return { signal: controller.signal, stop: () => void socket.off('close', onClose) };
}
