import { type IncomingMessage } from 'node:http';
import { type FastifyInstance } from 'fastify';
import { type ProblemKind } from '@layout/contracts';
import { problemOf, sendProblem } from '../common/filters/problem';
import { hasUnmetExpectation } from './client-errors';

/**
 * A host as RFC 3986 writes one (an IP literal in brackets, or a registered name or IPv4
 * address, possibly empty), then an optional port: the only valid `Host` (RFC 9112 §3.2).
 */
const HOST = /^(?:\[[0-9A-Za-z._~!$&'()*+,;=:-]+\]|[0-9A-Za-z._~!$&'()*+,;=%-]*)(?::[0-9]*)?$/;

/** Why a request whose headers Node accepted must still be refused, if it must. */
function framingProblem(request: IncomingMessage): [ProblemKind, string] | undefined {
  // Node keeps the first of several Host lines: they are counted on the raw headers.
  let hosts = 0;
  for (let index = 0; index < request.rawHeaders.length; index += 2) {
    const name = request.rawHeaders[index];
    if (name.length === 4 && name.toLowerCase() === 'host') hosts += 1;
  }
  const host = request.headers.host;
  const isHttp11 = request.httpVersionMajor === 1 && request.httpVersionMinor >= 1;
  if ((hosts === 0 && isHttp11) || hosts > 1 || (host && !HOST.test(host))) {
    return [
      'malformedRequest',
      'An HTTP/1.1 request carries exactly one Host header, with a valid host (RFC 9112 §3.2)',
    ];
  }
  const codings = request.headers['transfer-encoding'];
  if (codings !== undefined && !/(?:^|,)\s*chunked\s*$/i.test(codings)) {
    return [
      'malformedRequest',
      'A Transfer-Encoding must end with chunked, or the length of the body is unknown (RFC 9112 §6.3)',
    ];
  }
  if (hasUnmetExpectation(request)) {
    return ['expectationFailed', 'The only expectation this service meets is 100-continue'];
  }
  return undefined;
}

/**
 * Refuses, before anything else runs, the requests that Node's HTTP server lets through (or
 * would answer itself without a body) although HTTP forbids serving them: an HTTP/1.1 request
 * without `Host`, one with several `Host` lines or an invalid one, a `Transfer-Encoding` that
 * does not end in `chunked`, and an `Expect` other than `100-continue` (417). Each answer is
 * problem+json and closes the connection, since what follows on it cannot be trusted.
 */
export function refuseMisframedRequests(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    const problem = framingProblem(request.raw);
    if (problem === undefined) {
      done();
      return;
    }
    const [kind, detail] = problem;
    sendProblem(reply, problemOf(kind, request.url.split('?')[0], detail), { connection: 'close' });
  });
}
