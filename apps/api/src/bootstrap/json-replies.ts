import { type FastifyInstance } from 'fastify';
import { Representation } from '../common/http/representation';
import { SerializedJson } from '../common/json/serialized-json';

/**
 * Object replies as JSON; documents that are JSON already (text or bytes) go out untouched. A
 * Representation (what the layout services answer) sets its headers here, and a "not modified"
 * one turns the answer into a 304 without a body.
 */
export function configureJsonReplies(fastify: FastifyInstance): void {
  fastify.addHook('preSerialization', (_request, reply, payload, done) => {
    if (payload instanceof Representation) {
      const { etag, projectRevision, location } = payload.headers;
      if (etag !== undefined) void reply.header('etag', etag);
      if (projectRevision !== undefined) void reply.header('project-revision', projectRevision);
      if (location !== undefined) void reply.header('location', location);
      if (payload.notModified) void reply.code(304).removeHeader('content-type');
    }
    done(null, payload);
  });
  // Fastify sends a Buffer as it sends a string (its length is the Content-Length), so kept
  // bytes go out without being encoded again; its types only name the string.
  fastify.setReplySerializer((payload) => {
    const body = payload instanceof Representation ? payload.body : payload;
    if (body === undefined) return undefined as unknown as string;
    return (body instanceof SerializedJson ? body.payload : JSON.stringify(body)) as string;
  });
}
