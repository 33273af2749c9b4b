import {
  getSchemaPath,
  type HeaderObject,
  type ResponseObject,
  type SchemaObject,
} from '@nestjs/swagger';
import {
  PROBLEM_STATUSES,
  PROBLEM_TITLES,
  PROBLEM_TYPES,
  ProblemDetailsResponse,
  type ProblemKind,
  UNKNOWN_MEMBER_DETAIL,
} from '@layout/contracts';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/**
 * Stands for the request path in the examples' `instance`; the document builder replaces it with
 * the operation's path (see document.ts).
 */
export const INSTANCE_PLACEHOLDER = '{request path}';

/**
 * Every problem kind an operation can document. `internal` is not a promise; those answered
 * before any route is known (headers too large, a malformed request, a request that did not
 * arrive in time, an expectation other than 100-continue, CONNECT) and a method the path does
 * not have (which no operation can document, being no operation) are described once in the
 * info text.
 */
export type DocumentedProblemKind = Exclude<
  ProblemKind,
  | 'internal'
  | 'malformedRequest'
  | 'headersTooLarge'
  | 'requestTimeout'
  | 'expectationFailed'
  | 'methodNotImplemented'
  | 'methodNotAllowed'
>;

interface ProblemDoc {
  /** When the problem occurs, as a sentence. */
  when: string;
  /** A `detail` the service gives for it. */
  detail: string;
  /** Members beyond the standard ones, with example values; always present for this kind. */
  extensions?: Record<string, unknown>;
  headers?: Record<string, HeaderObject>;
}

const RETRY_AFTER: HeaderObject = {
  description: 'Seconds to wait before trying again.',
  required: true,
  schema: { type: 'integer', minimum: 1, example: 5 },
};

const PROBLEM_DOCS: Readonly<Record<DocumentedProblemKind, ProblemDoc>> = {
  validation: {
    when:
      'The body is not a JSON object, or a member is missing, invalid or unknown, or a query ' +
      'parameter is invalid or unknown; `errors` lists each by JSON pointer (`/<name>` for a ' +
      'query parameter).',
    // An unknown member: a mistake every body can have.
    detail: `colour ${UNKNOWN_MEMBER_DETAIL}`,
    extensions: { errors: [{ pointer: '/colour', detail: UNKNOWN_MEMBER_DETAIL }] },
  },
  malformedJson: {
    when: 'The body is not valid JSON, or its bytes are not valid UTF-8.',
    detail: 'The body is not valid JSON',
  },
  unauthorized: {
    when: 'The bearer token is missing, malformed, unknown or expired.',
    detail: 'The bearer token is unknown or expired',
    headers: {
      'WWW-Authenticate': {
        description: 'An RFC 6750 challenge, naming the error when a token was sent.',
        required: true,
        schema: {
          type: 'string',
          pattern: '^Bearer ',
          example:
            'Bearer realm="layout", error="invalid_token", error_description="The bearer token is unknown or expired"',
        },
      },
    },
  },
  invalidCredentials: {
    when: 'The username or the password is wrong (the same answer for both).',
    detail: 'Wrong username or password',
    headers: {
      'WWW-Authenticate': {
        description: 'The challenge of the bearer tokens this operation issues.',
        required: true,
        schema: { type: 'string', pattern: '^Bearer ', example: 'Bearer realm="layout"' },
      },
    },
  },
  wrongPassword: {
    when:
      'The current password sent to change it is wrong. Nothing changed; it counts as a failed ' +
      'sign-in, and too many of them answer 429 for a while.',
    detail: 'The current password is wrong',
  },
  recentSignInRequired: {
    when:
      'The operation cannot be undone and needs a token obtained in the last 5 minutes: get a ' +
      'new token with `POST /accounts/auth/token`, then repeat it. Nothing changed.',
    detail: 'This needs a token obtained in the last 5 minutes: sign in again, then repeat it',
  },
  forbiddenByRole: {
    when:
      'The caller is a member of the project, but its role does not allow this: `role` is its ' +
      'role, `required` the least role that may. Nothing changed.',
    detail: 'A viewer of this project cannot do this; it needs the role editor',
    extensions: { role: 'viewer', required: 'editor' },
  },
  notFound: {
    when:
      'A resource on the path does not exist for this account: unknown, malformed, under ' +
      'another parent, or in a project the account is not a member of.',
    detail: 'Project not found',
  },
  accountNotFound: {
    when: 'No account has this username (compared regardless of case). Nothing changed.',
    detail: 'No account has this username',
  },
  alreadyAMember: {
    when: 'The account is already a member of the project. Nothing changed.',
    detail: 'This account is already a member of the project',
  },
  ownerMustRemain: {
    when:
      'The owner cannot leave its project or be removed, nor give up its role but by handing ' +
      'the project over (`PUT …/members/<id>` with `{"role": "owner"}`). Nothing changed.',
    detail: 'The owner cannot leave the project; hand it over to another member first',
  },
  rowWidthExceeded: {
    when:
      "The row's columns would add up to more than 12; `availableSize` is what is left for " +
      'this column.',
    detail: 'The columns of a row add up to at most 12; 4 left for this column, 6 requested',
    extensions: { availableSize: 4 },
  },
  limitExceeded: {
    when:
      'The write would take a container past one of its limits (500 blocks in a project, 500 ' +
      'rows in a block, 1000 contents in a column, 10 000 projects per account, 8 MiB for a ' +
      "project's whole JSON answer); `limit` is the number, in items or bytes. Nothing changed.",
    detail: 'A column holds at most 1000 contents',
    extensions: { limit: 1000 },
  },
  preconditionFailed: {
    when:
      '`If-Match` names none of the current tags of the resource (someone changed it since it ' +
      'was read), or `If-None-Match` names its current tag or is `*`. Nothing changed; `ETag` ' +
      'carries the current tag.',
    detail: 'The resource has changed since it was read; reload it and try again',
    headers: {
      ETag: {
        description: 'The current entity tag of the resource.',
        required: true,
        schema: { type: 'string', example: '"r8"' },
      },
    },
  },
  preconditionRequired: {
    when: 'The server requires `If-Match` on every change (`REQUIRE_IF_MATCH`) and none was sent.',
    detail: 'Send If-Match with the ETag of the resource you read',
  },
  idempotencyKeyReused: {
    when:
      'The `Idempotency-Key` came with another request (method, path or body) within the last ' +
      '24 hours: nothing was done; send a new key with a new request.',
    detail:
      'This Idempotency-Key was sent with another request (method, path or body) within the last 24 hours; use a new key for a new request',
  },
  usernameTaken: {
    when: 'The username is taken (compared regardless of case).',
    detail: 'This username is already taken',
  },
  payloadTooLarge: {
    when:
      "The body is larger than 1 MiB, or a content's `data` larger than 256 KiB as stored JSON " +
      '(then `errors` names it by JSON pointer).',
    detail: 'The request body is larger than 1 MiB',
  },
  unsupportedMediaType: {
    when: 'The body is not declared as `application/json`, or declared in another charset than UTF-8.',
    detail: 'Send the body as application/json',
  },
  assetInUse: {
    when:
      'The asset is still named by a content or a style of a project (an image `url` or a ' +
      '`backgroundImage`); `paths` lists where. Nothing was deleted.',
    detail: 'The asset is still used: change or delete what names it first',
    extensions: {
      paths: [
        '/projects/0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a87/blocks/0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a81/rows/0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a82/columns/0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a83/contents/0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a84',
      ],
    },
  },
  rangeNotSatisfiable: {
    when:
      'The `Range` header asks for bytes past the end of the asset; `Content-Range` gives its ' +
      'size (`bytes */<size>`).',
    detail: 'The range starts past the end of the asset',
    headers: {
      'Content-Range': {
        description: 'The size of the asset: `bytes */<size>`.',
        required: true,
        schema: { type: 'string', pattern: '^bytes \\*/\\d+$', example: 'bytes */204800' },
      },
    },
  },
  assetStoreUnavailable: {
    when:
      "The asset store (the folder on disk, or the S3 bucket) did not take or give the asset's " +
      'bytes; nothing was kept. Try again after `Retry-After` seconds.',
    detail: 'The asset store is unavailable',
    headers: { 'Retry-After': RETRY_AFTER },
  },
  rateLimited: {
    when: 'Too many requests: wait for `Retry-After` seconds before trying again.',
    detail: 'Too many requests: try again in 30 s',
    headers: { 'Retry-After': RETRY_AFTER },
  },
  tooManyStreams: {
    when:
      'The account already has 10 event streams open (on any instance); close one (or let it ' +
      'end) before opening another.',
    detail: 'This account already has 10 event streams open; close one first',
    headers: { 'Retry-After': RETRY_AFTER },
  },
  databaseUnavailable: {
    when:
      'The database is unreachable, or did not answer within the deadline (`DATABASE_TIMEOUT_MS`); ' +
      'the service recovers by itself once it is back, try again after `Retry-After` seconds.',
    detail: 'The database is unreachable or did not answer in time; try again shortly',
    headers: { 'Retry-After': RETRY_AFTER },
  },
  tooManyConcurrentRequests: {
    when:
      "This account's requests already hold their share of the instance's database connections " +
      '(half of them) and none came free in time, so that other accounts keep theirs; send ' +
      'fewer requests in parallel and try again after `Retry-After` seconds.',
    detail:
      'This account has too many requests in progress at once; try again in a moment or send fewer in parallel',
    headers: { 'Retry-After': RETRY_AFTER },
  },
  writeOutcomeUnknown: {
    when:
      'A write only: the database stopped answering after the change was sent to be committed: it may or may ' +
      'not have been applied. Read the resource (its `ETag` and the project `revision` tell) ' +
      'before repeating the change.',
    detail:
      'The database stopped answering while this change was being committed: it may or may not have been applied. Read the resource again before repeating the change',
    headers: { 'Retry-After': RETRY_AFTER },
  },
  shuttingDown: {
    when:
      'This instance is stopping: the request was not started. Send it again (on a new ' +
      'connection, which reaches another instance).',
    detail: 'This instance is shutting down; send the request again',
    headers: { 'Retry-After': RETRY_AFTER },
  },
};

/** When the problems no operation documents occur (see DocumentedProblemKind). */
const UNDOCUMENTED_WHEN: Readonly<Record<Exclude<ProblemKind, DocumentedProblemKind>, string>> = {
  methodNotAllowed:
    'The path exists, but not with this method; `Allow` lists the methods it has (HEAD ' +
    'wherever GET is, OPTIONS everywhere).',
  malformedRequest:
    'The request could not be parsed as HTTP, or its framing is one HTTP forbids (an ' +
    'HTTP/1.1 request without `Host`, several `Host` lines or an invalid one, a ' +
    '`Transfer-Encoding` that does not end in `chunked`); the connection is closed. Any ' +
    'operation can answer it, before the request is routed.',
  headersTooLarge:
    'The request headers are larger than 16 KiB; the connection is closed. Any operation can ' +
    'answer it, before the request is routed.',
  expectationFailed:
    '`Expect` asks for something other than `100-continue`, which this service cannot meet; ' +
    'the request was not processed and the connection is closed. Any operation can answer it, ' +
    'before the request is routed.',
  methodNotImplemented:
    'The method is one this service implements for no resource (`CONNECT`: it is no proxy); ' +
    'the connection is closed.',
  requestTimeout:
    'The headers or the body did not arrive in time; the connection is closed. Any operation ' +
    'can answer it, before the request is routed.',
  internal:
    'A fault of the service, not of the request; the answer says nothing more. Try again ' +
    'later; the request id (`X-Request-Id`) finds the log lines.',
};

/**
 * When a problem of this kind occurs, as a sentence or two (Markdown code spans): what its type
 * URI's page says (GET /problems/<kind>).
 */
export function problemWhen(kind: ProblemKind): string {
  return kind in PROBLEM_DOCS
    ? PROBLEM_DOCS[kind as DocumentedProblemKind].when
    : UNDOCUMENTED_WHEN[kind as Exclude<ProblemKind, DocumentedProblemKind>];
}

/** Overrides of the generic wording for one operation (e.g. sign-up's 404 when it is off). */
export type ProblemWording = Partial<
  Record<DocumentedProblemKind, { when: string; detail: string }>
>;

export function statusOf(kind: DocumentedProblemKind): number {
  return PROBLEM_STATUSES[PROBLEM_TYPES[kind]];
}

function kebab(kind: string): string {
  return kind.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

/** The members that tell this kind apart: its type and status, and its own extensions. */
function kindSchema(kind: DocumentedProblemKind): SchemaObject {
  const extensions = Object.keys(PROBLEM_DOCS[kind].extensions ?? {});
  return {
    properties: {
      type: { enum: [PROBLEM_TYPES[kind]] },
      status: { enum: [statusOf(kind)] },
    },
    // `type` required in each, so that the kinds of one status exclude each other (oneOf).
    required: ['type', 'status', ...extensions],
  };
}

/**
 * The response of one error status: the problem+json schema narrowed to the kinds this
 * operation can give with that status, one example per kind, and the headers they carry.
 */
export function problemResponse(
  status: number,
  kinds: readonly DocumentedProblemKind[],
  wording: ProblemWording = {},
): ResponseObject & { status: number } {
  const docs = kinds.map((kind) => ({ ...PROBLEM_DOCS[kind], ...wording[kind] }));
  const headers: Record<string, HeaderObject> = {};
  for (const doc of docs) {
    for (const [name, header] of Object.entries(doc.headers ?? {})) {
      // A header is required only when every kind of this status sends it.
      const always = docs.every((other) => other.headers?.[name] !== undefined);
      headers[name] = { ...header, required: always };
    }
  }
  const narrowed: SchemaObject =
    kinds.length === 1 ? kindSchema(kinds[0]) : { oneOf: kinds.map(kindSchema) };
  return {
    status,
    description: docs.map((doc) => doc.when).join(' '),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    content: {
      [PROBLEM_CONTENT_TYPE]: {
        schema: { allOf: [{ $ref: getSchemaPath(ProblemDetailsResponse) }], ...narrowed },
        examples: Object.fromEntries(
          kinds.map((kind, index) => {
            const type = PROBLEM_TYPES[kind];
            const doc = docs[index];
            return [
              kebab(kind),
              {
                summary: PROBLEM_TITLES[type],
                value: {
                  type,
                  title: PROBLEM_TITLES[type],
                  status,
                  detail: doc.detail,
                  instance: INSTANCE_PLACEHOLDER,
                  ...doc.extensions,
                },
              },
            ];
          }),
        ),
      },
    },
  };
}

/** The problem kinds grouped by status, in the order given. */
export function byStatus(
  kinds: readonly DocumentedProblemKind[],
): Map<number, DocumentedProblemKind[]> {
  const groups = new Map<number, DocumentedProblemKind[]>();
  for (const kind of new Set(kinds)) {
    groups.set(statusOf(kind), [...(groups.get(statusOf(kind)) ?? []), kind]);
  }
  return groups;
}
