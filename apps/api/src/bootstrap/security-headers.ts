import { type IncomingMessage, type ServerResponse } from 'node:http';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import helmet, { type HelmetOptions } from 'helmet';

const DOCS_PREFIX = '/docs';

/**
 * The API answers JSON only: its content security policy lets nothing load or frame it.
 */
const API_CONTENT_SECURITY_POLICY = {
  useDefaults: false,
  directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
};

/**
 * The Swagger UI at /docs: helmet's default policy (its own scripts, styles, images and data:
 * icons, inline styles; no inline scripts), without `upgrade-insecure-requests`, which would
 * send a plain-HTTP deployment's asset requests to https and leave the page blank.
 */
const DOCS_CONTENT_SECURITY_POLICY = {
  useDefaults: true,
  directives: { upgradeInsecureRequests: null },
};

type Headers = Record<string, string>;

/**
 * The headers helmet sets with these options. They depend on nothing in the request, so they are
 * worked out once: helmet itself (and @fastify/helmet, which calls it per request) would parse
 * the policy's directives again for every response, a tenth of a small request's CPU time.
 */
function helmetHeaders(options: HelmetOptions): Readonly<Headers> {
  const headers: Headers = {};
  const response = {
    setHeader: (name: string, value: string) => (headers[name.toLowerCase()] = value),
    removeHeader: (name: string) => delete headers[name.toLowerCase()],
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error) => {
    if (error instanceof Error) throw error;
  });
  return Object.freeze(headers);
}

/**
 * Helmet's security headers on every response (errors and 404s included), with the explorer's
 * own content security policy under /docs.
 */
export function configureSecurityHeaders(app: NestFastifyApplication): void {
  const api = helmetHeaders({ contentSecurityPolicy: API_CONTENT_SECURITY_POLICY });
  const docs = helmetHeaders({ contentSecurityPolicy: DOCS_CONTENT_SECURITY_POLICY });
  const isDocs = (path: string) => path === DOCS_PREFIX || path.startsWith(`${DOCS_PREFIX}/`);
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', (request, reply, done) => {
      const route = request.routeOptions.url;
      void reply.headers(route !== undefined && isDocs(route) ? docs : api);
      done();
    });
}
