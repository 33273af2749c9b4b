import { errorCodes, type FastifyInstance } from 'fastify';

/** The route that takes a raw body: `POST /assets`. */
export const UPLOAD_ROUTE = '/assets';

/**
 * The body of an upload reaches its handler as the request's own stream, unread, whatever its
 * type (the service refuses what is no accepted image, 415, with a reason): so that it is
 * written out as it arrives, never gathered in memory. Every other route keeps JSON bodies
 * only (json-bodies.ts): anything else there answers 415 as before.
 */
export function takeUploadsAsStreams(fastify: FastifyInstance): void {
  fastify.addContentTypeParser(/^(?!application\/json)/, (request, payload, done) => {
    if (request.method === 'POST' && request.routeOptions.url === UPLOAD_ROUTE) {
      done(null, payload);
      return;
    }
    done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(request.headers['content-type']), undefined);
  });
}
