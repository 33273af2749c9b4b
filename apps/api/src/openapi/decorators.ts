import { applyDecorators, type Type } from '@nestjs/common';
import {
  ApiBody,
  ApiBearerAuth,
  ApiExtraModels,
  ApiHeader,
  ApiResponse,
  type ApiResponseOptions,
  type HeaderObject,
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

/**
 * Problems of every operation under a token: an unknown query parameter, rate limiting, an
 * unreachable database, an account past its share of the connections, a write whose outcome
 * is unknown, a stopping instance.
 */
export const COMMON_PROBLEMS = [
  'validation',
  'rateLimited',
  'databaseUnavailable',
  'tooManyConcurrentRequests',
  'writeOutcomeUnknown',
  'shuttingDown',
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

const ETAG: HeaderObject = {
  description:
    'Strong entity tag of this representation: send it in `If-None-Match` to read only when ' +
    'it changed, and in `If-Match` to change the resource only if nobody else did meanwhile.',
  required: true,
  schema: { type: 'string', example: '"r7"' },
};

const PROJECT_REVISION: HeaderObject = {
  description:
    "The project's revision after this write: the one it created, or the current one when " +
    'the request changed nothing.',
  required: true,
  schema: { type: 'integer', minimum: 1, example: 8 },
};

const LOCATION: HeaderObject = {
  description: 'Path of the new resource.',
  required: true,
  schema: { type: 'string', format: 'uri-reference' },
};

const NEW_PATH: HeaderObject = {
  description: 'Path of the resource at its new place; the old path answers 404 from now on.',
  required: true,
  schema: { type: 'string', format: 'uri-reference' },
};

/** 200 with a JSON body: a response class (or a list of one, `[Class]`) or a schema. */
export function ApiOkJsonResponse(
  body: Body,
  example: unknown,
  description: string,
): MethodDecorator & ClassDecorator {
  return ApiResponse({ status: 200, description, ...bodyOptions(body), example });
}

/**
 * A read of the layout tree: 200 with the document and its `ETag`, or 304 without a body when
 * `If-None-Match` names the current tag.
 */
export function ApiTaggedRead(
  body: Body,
  example: unknown,
  description: string,
): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiHeader({
      name: 'If-None-Match',
      required: false,
      description:
        'Entity tags (or `*`): when one is the current tag, the answer is 304 without a body.',
      schema: { type: 'string', example: '"r7"' },
    }),
    ApiResponse({
      status: 200,
      description,
      ...bodyOptions(body),
      example,
      headers: { ETag: ETAG },
    }),
    ApiResponse({
      status: 304,
      description: 'Not modified: `If-None-Match` names the current tag. No body.',
      headers: { ETag: ETAG },
    }),
  );
}

/**
 * A change of the layout tree answering 200 with the resource, its new `ETag` and the revision;
 * with `moved`, its new path in `Location` too (a move: the node's members unchanged).
 */
export function ApiChangedResponse(
  type: Type,
  example: unknown,
  description: string,
  { moved = false }: { moved?: boolean } = {},
): MethodDecorator & ClassDecorator {
  const headers: Record<string, HeaderObject> = {
    ETag: ETAG,
    'Project-Revision': PROJECT_REVISION,
  };
  return ApiResponse({
    status: 200,
    description,
    type,
    example,
    headers: moved ? { ...headers, Location: NEW_PATH } : headers,
  });
}

/**
 * A move of a node of the layout tree: 200 with the node (its members and its tag unchanged),
 * its new path in `Location`, and the project revision.
 */
export function ApiMovedResponse(
  type: Type,
  example: unknown,
  description: string,
): MethodDecorator & ClassDecorator {
  return ApiChangedResponse(type, example, description, { moved: true });
}

export function ApiOptionalBody(type: Type): MethodDecorator {
  return ApiBody({ type, required: false });
}

/**
 * 201 with the new resource and, unless `location` is false (an account has no path of its
 * own), its path in `Location`; a resource of the layout tree (`tagged`) also carries its `ETag`
 * and the project revision. The Location example is filled in by the document builder, which
 * knows the paths.
 */
export function ApiCreatedJsonResponse(
  type: Type,
  example: unknown,
  description: string,
  { location = true, tagged = location }: { location?: boolean; tagged?: boolean } = {},
): MethodDecorator & ClassDecorator {
  const headers: Record<string, HeaderObject> = {
    ...(location ? { Location: LOCATION } : {}),
    ...(tagged ? { ETag: ETAG, 'Project-Revision': PROJECT_REVISION } : {}),
  };
  return ApiResponse({
    status: 201,
    description,
    type,
    example,
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
  });
}

/** 204, no body. */
export function ApiNoContentResponse(description: string): MethodDecorator & ClassDecorator {
  return ApiResponse({ status: 204, description });
}

/** 204, no body; the project revision the delete created. */
export function ApiDeletedResponse(description: string): MethodDecorator & ClassDecorator {
  return ApiResponse({
    status: 204,
    description,
    headers: { 'Project-Revision': PROJECT_REVISION },
  });
}

/**
 * The conditions a change takes, `If-Match` and `If-None-Match`, and the answers they can lead
 * to (412, 428).
 */
export function ApiIfMatch(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiHeader({
      name: 'If-Match',
      required: false,
      description:
        'Entity tags (or `*`): the change happens only if one of them is the current tag of ' +
        'the resource, checked atomically with the write; otherwise 412 and nothing changes. ' +
        'Required (428 without it) when the server runs with `REQUIRE_IF_MATCH=true`.',
      schema: { type: 'string', example: '"r7"' },
    }),
    ApiHeader({
      name: 'If-None-Match',
      required: false,
      description:
        'Entity tags (or `*`): the change happens only if none of them is the current tag of ' +
        'the resource (weak comparison); `*` always fails, the resource existing. Otherwise ' +
        '412 and nothing changes (RFC 9110 §13.1.2), checked after `If-Match`.',
      schema: { type: 'string', example: '"r7"' },
    }),
    ApiProblems('preconditionFailed', 'preconditionRequired'),
  );
}

/**
 * `Idempotency-Key` on a create, a move or a copy, and its 422: the same key with the same
 * request replays the first answer instead of doing it again.
 */
export function ApiIdempotencyKey(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        "A key of the client's choosing, unique per request (draft-ietf-httpapi-idempotency-" +
        'key-header; a UUID, quoted or not). Sent again with the same request within 24 hours, ' +
        'the first answer is replayed (the same status, body, `ETag`, `Location`) and nothing ' +
        'is done again, even when the two arrive at once on two instances. So a create, a move ' +
        'or a copy retried after a timeout, or after 503 `write-outcome-unknown`, never happens ' +
        'twice. With another request: 422.',
      schema: {
        type: 'string',
        minLength: 1,
        maxLength: 257,
        example: '"8e03978e-40d5-43e8-bc93-6894a57f9324"',
      },
    }),
    ApiProblems('idempotencyKeyReused'),
  );
}
