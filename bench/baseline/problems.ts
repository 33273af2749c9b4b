import { type FastifyReply } from 'fastify';

export interface FieldError {
  pointer: string;
  detail: string;
}

/** RFC 9457 answers with the contract's `/problems/<kind>` types (bodies are not compared). */
export function sendProblem(
  reply: FastifyReply,
  status: number,
  kind: string,
  detail: string,
  extensions: Record<string, unknown> = {},
): FastifyReply {
  return reply
    .code(status)
    .type('application/problem+json')
    .send({
      type: `/problems/${kind}`,
      title: kind,
      status,
      detail,
      instance: reply.request.url,
      ...extensions,
    });
}

export const notFound = (reply: FastifyReply, resource: string) =>
  sendProblem(reply, 404, 'not-found', `${resource} not found`);

export const invalid = (reply: FastifyReply, errors: FieldError[]) =>
  sendProblem(reply, 400, 'validation', `${errors[0]?.pointer} ${errors[0]?.detail}`, { errors });
