import { applyDecorators, type Type } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiExtraModels,
  ApiResponse,
  type ApiResponseOptions,
  type SchemaObject,
} from '@nestjs/swagger';
import { ProblemDetailsResponse } from '@layout/contracts';
import {
  byStatus,
  type DocumentedProblemKind,
  problemResponse,
  type ProblemWording,
} from './problems';

// The success decorators are named Api…Response on purpose: the swagger CLI plugin then treats
// them as the operation's explicit success response and adds none of its own at build time, so
// the built document and the tests' document cannot drift apart.

/** Problems of every operation that reads a JSON body. */
export const BODY_PROBLEMS = [
  'validation',
  'malformedJson',
  'payloadTooLarge',
  'unsupportedMediaType',
] as const satisfies readonly DocumentedProblemKind[];

/** Problems of every operation: rate limiting and an unreachable database. */
export const COMMON_PROBLEMS = [
  'rateLimited',
  'databaseUnavailable',
] as const satisfies readonly DocumentedProblemKind[];

/**
 * The error responses an operation can give, by problem kind (kinds of one status share a
 * response, with one example each): `application/problem+json` bodies narrowed to those kinds,
 * with their headers (`WWW-Authenticate`, `Retry-After`).
 */
export function ApiProblems(
  ...kinds: Array<DocumentedProblemKind | ProblemWording>
): MethodDecorator & ClassDecorator {
  const wording = Object.assign(
    {},
    ...kinds.filter((kind): kind is ProblemWording => typeof kind === 'object'),
  ) as ProblemWording;
  const names = kinds.filter((kind): kind is DocumentedProblemKind => typeof kind === 'string');
  return applyDecorators(
    ApiExtraModels(ProblemDetailsResponse),
    ...[...byStatus(names)].map(([status, group]) =>
      ApiResponse(problemResponse(status, group, wording) as ApiResponseOptions),
    ),
  );
}

/**
 * Every operation under a bearer token: the security requirement, 401 with its challenge, and
 * the problems every operation can give.
 */
export function ApiProtected(): MethodDecorator & ClassDecorator {
  return applyDecorators(ApiBearerAuth(), ApiProblems('unauthorized', ...COMMON_PROBLEMS));
}

type Body = Type | [Type] | SchemaObject;

function bodyOptions(body: Body): { type: Type | [Type] } | { schema: SchemaObject } {
  return typeof body === 'function' || Array.isArray(body) ? { type: body } : { schema: body };
}

/** 200 with a JSON body: a response class (or a list of one, `[Class]`) or a schema. */
export function ApiOkJsonResponse(
  body: Body,
  example: unknown,
  description: string,
): MethodDecorator & ClassDecorator {
  return ApiResponse({ status: 200, description, ...bodyOptions(body), example });
}

/**
 * 201 with the new resource and, unless `location` is false (an account has no path of its
 * own), its path in `Location`; the header's example is filled in by the document builder, which
 * knows the paths.
 */
export function ApiCreatedJsonResponse(
  type: Type,
  example: unknown,
  description: string,
  { location = true }: { location?: boolean } = {},
): MethodDecorator & ClassDecorator {
  return ApiResponse({
    status: 201,
    description,
    type,
    example,
    ...(location
      ? {
          headers: {
            Location: {
              description: 'Path of the new resource.',
              required: true,
              schema: { type: 'string', format: 'uri-reference' },
            },
          },
        }
      : {}),
  });
}

/** 204, no body. */
export function ApiDeletedResponse(description: string): MethodDecorator & ClassDecorator {
  return ApiResponse({ status: 204, description });
}
