import { type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import { type FastifyInstance, type FastifyReply } from 'fastify';
import { REQUEST_ID_HEADER } from '../logging/request-id';

/** Where a stream of Server-Sent Events goes: the response, seen only as what a stream needs. */
export interface EventSink {
  /** Queues `chunk`; false when the connection does not take it in as fast. */
  write(chunk: string): boolean;
  /** Bytes written that the connection has not taken in yet. */
  readonly unsentBytes: number;
  /** Ends the response cleanly. */
  end(): void;
  /** Cuts the connection (a client that does not read). */
  destroy(): void;
  /** `listener` runs once the response is over, however it ended. */
  onClose(listener: () => void): void;
}

const openStreams = new WeakMap<FastifyInstance, Set<ServerResponse>>();

/**
 * Answers `reply` with a `text/event-stream` that stays open (a HEAD's ends after its headers):
 * the headers Fastify's hooks set so far (CORS, `X-Request-Id`, rate limits) go out with the
 * stream's own, and the stream leaves Fastify's reply (and so compression, which would hold
 * events back). The stream is known to the server's shutdown, which ends it (endEventStreams).
 */
export function openEventStream(reply: FastifyReply): EventSink {
  const raw = reply.raw;
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) headers[name] = value;
  }
  reply.hijack();
  raw.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    // Neither a cache nor a proxy may keep or hold back what is an open-ended stream.
    'cache-control': 'no-store',
    'x-accel-buffering': 'no',
    'x-content-type-options': 'nosniff',
    [REQUEST_ID_HEADER]: reply.request.id,
  });
  // A HEAD asks for the stream's headers alone: they go out, and the answer ends there. The
  // stream still starts and stops (what it counts comes free when the answer closes).
  if (reply.request.method === 'HEAD') raw.end();
  raw.socket?.setNoDelay(true);
  let streams = openStreams.get(reply.server);
  if (!streams) {
    streams = new Set();
    openStreams.set(reply.server, streams);
  }
  const open = streams;
  open.add(raw);
  raw.once('close', () => open.delete(raw));
  return {
    write: (chunk) => raw.writableEnded || raw.write(chunk),
    get unsentBytes() {
      return raw.writableLength;
    },
    end: () => raw.end(),
    destroy: () => raw.destroy(),
    onClose: (listener) => {
      if (raw.destroyed || raw.writableFinished) listener();
      else raw.once('close', listener);
    },
  };
}

/** Ends every event stream of `fastify` (at shutdown): their clients reconnect elsewhere. */
export function endEventStreams(fastify: FastifyInstance): number {
  const streams = openStreams.get(fastify);
  if (!streams) return 0;
  const count = streams.size;
  for (const stream of streams) stream.end();
  return count;
}
