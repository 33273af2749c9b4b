import { type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { UNKNOWN_MEMBER_DETAIL } from '@layout/contracts';
import { type OpenAPIObject } from '@nestjs/swagger';
import { type FastifyRequest } from 'fastify';
import { type Observable } from 'rxjs';
import { RequestValidationError } from '../common/errors';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** Per route (`GET /projects/:projectId`), the query parameters its operation documents. */
export type KnownQueryParameters = ReadonlyMap<string, ReadonlySet<string>>;

/**
 * The query parameters of every documented operation, read from the OpenAPI document: the one
 * place that says which a route takes, so that the check below and the document cannot differ.
 */
export function knownQueryParameters(document: OpenAPIObject): KnownQueryParameters {
  const known = new Map<string, ReadonlySet<string>>();
  for (const [path, item] of Object.entries(document.paths)) {
    const route = path.replace(/\{([^}]+)\}/g, ':$1');
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const names = (operation.parameters ?? []).flatMap((parameter) =>
        '$ref' in parameter || parameter.in !== 'query' ? [] : [parameter.name],
      );
      known.set(`${method.toUpperCase()} ${route}`, new Set(names));
    }
  }
  return known;
}

/**
 * A query parameter that the route's operation does not document answers 400 validation,
 * naming it, like an unknown member of a body: a misspelt `limt=10` must not be ignored. The
 * raw query string is read, so that names the query parser drops (`__proto__`, `constructor`)
 * are refused too. Routes outside the document (the explorer's files) are left alone. An
 * interceptor, so that it runs after the guards: a request without a valid token is a 401,
 * whatever its query says.
 */
export class UnknownQueryParametersInterceptor implements NestInterceptor {
  constructor(private readonly known: () => KnownQueryParameters | undefined) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const question = request.url.indexOf('?');
    const allowed =
      question === -1
        ? undefined
        : this.known()?.get(
            `${request.method === 'HEAD' ? 'GET' : request.method} ${request.routeOptions.url}`,
          );
    if (allowed !== undefined) {
      const unknown = [
        ...new Set(new URLSearchParams(request.url.slice(question + 1)).keys()),
      ].filter((name) => !allowed.has(name));
      if (unknown.length > 0) {
        throw new RequestValidationError(
          unknown.map((name) => ({ pointer: `/${name}`, detail: UNKNOWN_MEMBER_DETAIL })),
        );
      }
    }
    return next.handle();
  }
}
