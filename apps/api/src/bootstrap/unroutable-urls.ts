import { NotFoundException } from '@nestjs/common';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { toProblem } from '../common/filters/problem';
import { REQUEST_ID_HEADER } from '../common/logging/request-id';

/**
 * Fastify's router refuses some paths before any route or hook sees them (a `%` that is no
 * valid percent-encoding, a segment past maxParamLength) and would answer with JSON of its
 * own. These are ids of the wrong shape: the contract's answer is the not-found problem. (No
 * hook runs for them, so the request id is set here; helmet's and CORS headers are missing.)
 */
export function answerUnroutableUrl(
  _error: Error,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const problem = toProblem(
    new NotFoundException('No resource has this path'),
    request.url.split('?')[0],
  );
  void reply
    .status(problem.status)
    .headers({ ...problem.headers, [REQUEST_ID_HEADER]: request.id })
    .type('application/problem+json')
    .send(problem.body);
}
