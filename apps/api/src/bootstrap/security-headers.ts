import { type IncomingMessage, type ServerResponse } from 'node:http';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import helmet, { type HelmetOptions } from 'helmet';

const DOCS_PREFIX = '/docs';

/**
 * The API answers JSON only, and a browser needs to be told little about it (OWASP's REST
 * Security Cheat Sheet): load nothing and be framed by nothing, never sniff the type, HTTPS
 * only, no referrer, not to be read by other origins' pages outside CORS. What helmet adds for
 * HTML documents (the opener policy, DNS prefetching, old Internet Explorer's download and XSS
 * settings, Flash's cross-domain policies, origin-keyed agent clusters) means nothing to a
 * fetch() of JSON, and costs every answer its bytes: those stay on the explorer's page.
 */
const API_HEADERS: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
  },
  xFrameOptions: { action: 'deny' },
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
};

/**
 * The Swagger UI at /docs: helmet's default policy (its own scripts, styles, images and data:
 * icons, inline styles; no inline scripts), without `upgrade-insecure-requests`, which would
 * send a plain-HTTP deployment's asset requests to https and leave the page blank.
 */
const DOCS_HEADERS: HelmetOptions = {
  contentSecurityPolicy: { useDefaults: true, directives: { upgradeInsecureRequests: null } },
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
 * Security headers on every response (errors and 404s included): the API's few, and helmet's
 * whole set, with the explorer's own content security policy, under /docs.
 */
export function configureSecurityHeaders(app: NestFastifyApplication): void {
  const api = helmetHeaders(API_HEADERS);
  const docs = helmetHeaders(DOCS_HEADERS);
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
