import { type FastifyInstance } from 'fastify';
import { SerializedJson } from '../common/json/serialized-json';

/** Object replies as JSON; documents that are JSON text already go out untouched. */
export function configureJsonReplies(fastify: FastifyInstance): void {
  fastify.setReplySerializer((payload) =>
    payload instanceof SerializedJson ? payload.text : JSON.stringify(payload),
  );
}
