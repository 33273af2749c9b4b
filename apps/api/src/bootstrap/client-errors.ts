import { STATUS_CODES } from 'node:http';
import { type Socket } from 'node:net';
import { PROBLEM_STATUSES, PROBLEM_TITLES, PROBLEM_TYPES } from '@layout/contracts';

/**
 * Requests that Node's HTTP server rejects before Fastify sees them (headers over 16 KiB,
 * malformed request lines, headers or a body that did not arrive in time) are answered here, as problem+json like every other error, and the
 * connection is closed: after a parse error the stream cannot be trusted.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const type =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? PROBLEM_TYPES.headersTooLarge
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? PROBLEM_TYPES.requestTimeout
        : PROBLEM_TYPES.malformedRequest;
  const status = PROBLEM_STATUSES[type];
  const body = JSON.stringify({ type, title: PROBLEM_TITLES[type], status });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Content-Type: application/problem+json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
