import helmet from '@fastify/helmet';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';

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
export const DOCS_CONTENT_SECURITY_POLICY = {
  useDefaults: true,
  directives: { upgradeInsecureRequests: null },
};

/**
 * Helmet's security headers on every response (errors and 404s included). Call before the
 * routes are declared: the /docs routes get their own content security policy as they are added.
 */
export async function configureSecurityHeaders(app: NestFastifyApplication): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRoute', (route) => {
    if (route.url === DOCS_PREFIX || route.url.startsWith(`${DOCS_PREFIX}/`)) {
      route.config = {
        ...route.config,
        helmet: { contentSecurityPolicy: DOCS_CONTENT_SECURITY_POLICY },
      };
    }
  });
  await app.register(helmet, { contentSecurityPolicy: API_CONTENT_SECURITY_POLICY });
}
