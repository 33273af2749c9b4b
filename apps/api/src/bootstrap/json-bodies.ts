import { type FastifyInstance } from 'fastify';

/** The contract's body limit: larger bodies answer 413. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Bodies are JSON only: every other content type answers 415. An empty body with a JSON content
 * type (some clients send one on DELETE) counts as no body rather than malformed JSON;
 * `__proto__` and `constructor.prototype` keys are refused by Fastify's secure parser (400).
 */
export function configureJsonBodies(fastify: FastifyInstance): void {
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES },
    (request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') {
        done(null, undefined);
        return;
      }
      // Fastify's parser answers through `done`; its return value carries nothing.
      void parseJson(request, text, done);
    },
  );
}
