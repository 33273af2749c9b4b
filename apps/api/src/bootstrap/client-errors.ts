import { randomUUID } from 'node:crypto';
import { type IncomingMessage, STATUS_CODES, type Server, type ServerResponse } from 'node:http';
import { type Socket } from 'node:net';
import { type Duplex } from 'node:stream';
import { type Logger } from 'pino';
import { describeProblem, logLevelOf, type ProblemKind } from '../common/filters/problem-catalog';
import { REQUEST_ID_HEADER } from '../common/logging/request-id';

/**
 * The response a connection is writing: Node's own record of it (`_httpMessage`, which its
 * default handler of parser errors reads too), rather than one kept here for every request,
 * which would cost every request what only a parse error needs.
 */
function responseInFlight(socket: Socket): ServerResponse | undefined {
  return (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined;
}

/** Where the answers written on a socket are logged: the access log's lines, with no route. */
export type EdgeLog = Pick<Logger, 'info' | 'warn' | 'error' | 'isLevelEnabled'>;

/**
 * Writes the problem of `kind` straight to the socket and closes the connection: for answers
 * given where no Fastify request exists (the parser failed, or the request is no request of
 * ours), as problem+json like every other answer, with a request id of its own that names its
 * line in the access log.
 */
function answerOnSocket(socket: Duplex, kind: ProblemKind, log: EdgeLog): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const { type, title, status } = describeProblem(kind);
  const requestId = randomUUID();
  const body = JSON.stringify({ type, title, status });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Content-Type: application/problem+json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `${REQUEST_ID_HEADER}: ${requestId}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
  const level = logLevelOf(kind);
  if (log.isLevelEnabled(level)) {
    log[level]({ requestId, status, problemType: type }, 'request refused before routing');
  }
}

/**
 * Requests that Node's HTTP server rejects before Fastify sees them (headers over 16 KiB,
 * malformed request lines, headers or a body that did not arrive in time) are answered here, and
 * the connection is closed: after a parse error the stream cannot be trusted.
 *
 * The parser may fail while a response is still being written on the connection. When that
 * response's request was complete, the failure is a later request's: it is answered once that
 * response has finished. Otherwise the failure is the request's own (its body, or framing the
 * parser accepted as headers, such as a `Transfer-Encoding` that does not end in `chunked`): a
 * response whose first bytes have gone out is left to finish, and then the connection closes,
 * since a second answer would read as the answer to the next request; one that has not started
 * is replaced by this answer.
 */
export function clientErrorAnswerer(log: EdgeLog) {
  return (error: Error & { code?: string }, socket: Socket): void => {
    const kind =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? 'headersTooLarge'
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? 'requestTimeout'
          : 'malformedRequest';
    const inFlight = responseInFlight(socket);
    if (inFlight !== undefined && !inFlight.writableFinished) {
      if (inFlight.req.complete) {
        inFlight.once('finish', () => answerOnSocket(socket, kind, log));
        return;
      }
      if (inFlight.headersSent) {
        inFlight.once('finish', () => socket.end());
        return;
      }
    }
    answerOnSocket(socket, kind, log);
  };
}

/**
 * What Node's HTTP server would answer itself, or not at all, goes through here instead:
 * - a `CONNECT` (this service is no proxy) gets the method-not-implemented problem, where Node
 *   would close the connection without a word;
 * - a request whose `Expect` is not `100-continue`, which Node answers with an empty 417, goes
 *   on as a request marked as such, for request-framing.ts to answer as problem+json.
 */
export function answerWhatNodeWould(server: Server, log: EdgeLog): void {
  server.on('connect', (_request: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    answerOnSocket(socket, 'methodNotImplemented', log);
  });
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    unmetExpectations.add(request);
    server.emit('request', request, response);
  });
}

const unmetExpectations = new WeakSet<IncomingMessage>();

/** Whether the request's `Expect` asked for something other than `100-continue` (HTTP/1.1). */
export function hasUnmetExpectation(request: IncomingMessage): boolean {
  return unmetExpectations.has(request);
}
