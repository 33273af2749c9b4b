import { applyDecorators } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExtension } from '@nestjs/swagger';

/** For answers that carry a credential or tell whether a password was right. */
export const NO_STORE = 'no-store';
/**
 * For an account's own reads: only the browser may keep them (`private`), and only to
 * revalidate them with their `ETag` before each use (`no-cache`); no shared cache serves them.
 */
export const PRIVATE_REVALIDATED = 'private, no-cache';

/** Where a route names its own policy: its Fastify route config, and its OpenAPI operation. */
export const CACHE_CONTROL_CONFIG = 'cacheControl';
export const CACHE_CONTROL_EXTENSION = 'x-cache-control';

/**
 * Every answer of this route, errors included, carries `Cache-Control: no-store`: it carries a
 * token (RFC 6749 §5.1) or a password's outcome, which no cache may keep. The header is set by
 * bootstrap/cache-control.ts and described in the OpenAPI document by its builder.
 */
export function NoStore(): MethodDecorator {
  return applyDecorators(
    RouteConfig({ [CACHE_CONTROL_CONFIG]: NO_STORE }),
    ApiExtension(CACHE_CONTROL_EXTENSION, NO_STORE),
  );
}
