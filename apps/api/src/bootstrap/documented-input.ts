import { type CanActivate, type ExecutionContext } from '@nestjs/common';
import { UNKNOWN_MEMBER_DETAIL } from '@layout/contracts';
import { type OpenAPIObject } from '@nestjs/swagger';
import { type FastifyRequest } from 'fastify';
import { RequestValidationError } from '../common/errors';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** What an operation's request may carry besides its path. */
export interface DocumentedInput {
  /** The query parameters it documents. */
  readonly query: ReadonlySet<string>;
  /** Whether it documents a body (required or not). */
  readonly takesBody: boolean;
}

/** Per route (`GET /projects/:projectId`), what its operation documents. */
export type DocumentedInputs = ReadonlyMap<string, DocumentedInput>;

export const NO_BODY_DETAIL = 'This operation takes no body';

/**
 * The query parameters and bodies of every documented operation, read from the OpenAPI
 * document: the one place that says what a route takes, so that the check below and the
 * document cannot differ.
 */
export function documentedInputs(document: OpenAPIObject): DocumentedInputs {
  const inputs = new Map<string, DocumentedInput>();
  for (const [path, item] of Object.entries(document.paths)) {
    const route = path.replace(/\{([^}]+)\}/g, ':$1');
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const names = (operation.parameters ?? []).flatMap((parameter) =>
        '$ref' in parameter || parameter.in !== 'query' ? [] : [parameter.name],
      );
      inputs.set(`${method.toUpperCase()} ${route}`, {
        query: new Set(names),
        takesBody: operation.requestBody !== undefined,
      });
    }
  }
  return inputs;
}

/**
 * What the route's operation does not document answers 400 validation, like an unknown member
 * of a body: a query parameter, named (a misspelt `limt=10` must not be ignored), or a body
 * where it takes none (a `DELETE` with one). The raw query string is read, so that names the
 * query parser drops (`__proto__`, `constructor`) are refused too. Routes outside the document
 * (the explorer's files) are left alone. Registered with `useGlobalGuards`, it runs after the
 * application's own guards (`APP_GUARD`): a request without a valid token is a 401, whatever it
 * carries. A guard, not an interceptor: with no interceptor, Nest calls a handler without an
 * rxjs pipeline around it, which every request would otherwise pay for.
 */
export class UndocumentedInputGuard implements CanActivate {
  constructor(private readonly documented: () => DocumentedInputs | undefined) {}

  canActivate(context: ExecutionContext): true {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const input = this.documented()?.get(
      `${request.method === 'HEAD' ? 'GET' : request.method} ${request.routeOptions.url}`,
    );
    if (input === undefined) return true;
    const question = request.url.indexOf('?');
    if (question !== -1) {
      const unknown = [
        ...new Set(new URLSearchParams(request.url.slice(question + 1)).keys()),
      ].filter((name) => !input.query.has(name));
      if (unknown.length > 0) {
        throw new RequestValidationError(
          unknown.map((name) => ({ pointer: `/${name}`, detail: UNKNOWN_MEMBER_DETAIL })),
        );
      }
    }
    // An empty body counts as none (json-bodies.ts): some clients send one on DELETE.
    if (!input.takesBody && request.body !== undefined) {
      throw new RequestValidationError([], NO_BODY_DETAIL);
    }
    return true;
  }
}
