import { type INestApplication } from '@nestjs/common';
import {
  DocumentBuilder,
  type OpenAPIObject,
  type OperationObject,
  type ParameterObject,
  type HeaderObject,
  type ReferenceObject,
  SwaggerModule,
} from '@nestjs/swagger';
import { ensurePluginMetadata } from './plugin-metadata';
import {
  CACHE_CONTROL_EXTENSION,
  NO_STORE,
  PRIVATE_REVALIDATED,
} from '../common/http/cache-control';
import { examplePath } from './example-ids';
import { INSTANCE_PLACEHOLDER, PROBLEM_CONTENT_TYPE } from './problems';
import { isUnlimitedRoute } from '../common/throttling/rate-limit-budget';
import { applyLeastRoles } from './least-roles';
import { applySchemaHints, modelsReferencedByHints } from './schema-hints';

export const DOCS_PATH = 'docs';
export const DOCUMENT_PATH = 'docs/openapi.json';

const DESCRIPTION = `Stores the layout of proposal pages: **project › block › row › column › content**.

**Authorisation.** Every operation except sign-up, the token and health needs
\`Authorization: Bearer <token>\`. In this explorer: run \`POST /accounts\` with "Try it out"
as it stands (it signs up the example user), then \`POST /accounts/auth/token\` as it stands
(the same user), copy \`token\` from the answer, press **Authorize** and paste it. A token stops
working when it expires, on sign-out, on a password change (all but the one that made it) and
when the account is deleted: from the next request on, on every instance. Answers that carry a
token or a password's outcome say \`Cache-Control: no-store\`; reads under a token say
\`private, no-cache\` (revalidate with the \`ETag\`).

**Writes.** A create answers 201 with the new resource and its path in \`Location\`. An update
(\`PUT\`) changes only the members it carries. A delete answers 204 and removes the whole subtree.
Lists come back in their stored order; \`position\` (0-based) inserts or moves. \`POST <node>/move\`
moves a block, row, column or content with its subtree to another place in its project, in one
transaction: it keeps its id and its tag, and answers 200 with its new path in \`Location\`.
\`POST <node>/duplicate\` copies a project, block, row, column or content with its subtree, new
ids everywhere (201; at most 20 000 nodes per copy).

**Editing together.** Every project has a \`revision\`, one higher after every committed request
that changes its tree; every write answers it in \`Project-Revision\`. Every read answers a strong
\`ETag\` that changes exactly when that representation does (a change inside a column changes the
tags along its path, not a sibling's): send it in \`If-None-Match\` to get 304 when nothing
changed, and in \`If-Match\` on \`PUT\`, \`DELETE\`, a move or a copy to act only if nobody else did
meanwhile (412 otherwise, with the current \`ETag\`; 428 without it when the server requires it).
On a change, \`If-None-Match\` naming the current tag (or \`*\`) answers 412 and changes nothing.
Limits: 500 blocks per project, 500 rows per block, 1000 contents per column, 10 000 projects per
account, 256 KiB of \`data\` per content, 8 MiB per project's whole answer.

**Errors** are RFC 9457 \`application/problem+json\` bodies (schema \`ProblemDetailsResponse\`)
whose \`type\` names the kind of problem: \`/problems/validation\` (400, with \`errors\`),
\`/problems/malformed-json\` (400), \`/problems/unauthorized\` (401),
\`/problems/invalid-credentials\` (401), \`/problems/wrong-password\` (403: a password change's
current password), \`/problems/recent-sign-in-required\` (403: deleting the account needs a token
of the last 5 minutes), \`/problems/not-found\` (404, also for any unknown route),
\`/problems/row-width-exceeded\` (409, with \`availableSize\`), \`/problems/limit-exceeded\` (409,
with \`limit\`), \`/problems/username-taken\` (409), \`/problems/precondition-failed\` (412),
\`/problems/payload-too-large\` (413), \`/problems/unsupported-media-type\` (415),
\`/problems/precondition-required\` (428), \`/problems/rate-limited\` (429),
\`/problems/database-unavailable\` (503), \`/problems/too-many-concurrent-requests\` (503: one
account may hold at most half of an instance's database connections),
\`/problems/write-outcome-unknown\` (503: the database stopped answering while a change was being
committed; read before repeating it), \`/problems/shutting-down\` (503: the instance is stopping,
send the request again) and \`/problems/internal\` (500: a fault of the service, which says
nothing more). Any operation can also answer \`/problems/headers-too-large\` (431, headers over
16 KiB), \`/problems/malformed-request\` (400, not parseable as HTTP, or framed as HTTP forbids:
no \`Host\` in HTTP/1.1, several or an invalid one, a \`Transfer-Encoding\` not ending in
\`chunked\`), \`/problems/expectation-failed\` (417, an \`Expect\` other than \`100-continue\`) or
\`/problems/request-timeout\` (408, headers or body not received in time), before the request is
routed; the connection is then closed. \`CONNECT\` answers \`/problems/method-not-implemented\`
(501): this service is no proxy. Every type URI is also a page: \`GET /problems/<kind>\`
describes that problem (HTML, no token), \`GET /problems\` lists them all.

**Methods.** A path answers \`HEAD\` wherever it answers \`GET\`. A method the path does not have
answers 405 \`/problems/method-not-allowed\` with \`Allow\` listing the ones it has; \`OPTIONS\`
(not a CORS preflight) answers 204 with \`Allow\`. A path that does not exist answers 404
whatever the method.

**Request budgets.** Calls with a token count against the account's budget, sign-up and the token
against the client address's; past it, 429 \`/problems/rate-limited\` with \`Retry-After\`. Every
counted answer carries the IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers):
\`RateLimit-Policy: "account";q=1200;w=60\` (the budget: \`q\` requests per \`w\` seconds; the
policy is \`account\`, \`address\` or, for the opens of share links, \`shared\`) and \`RateLimit: "account";r=1187;t=42\` (\`r\` requests left,
\`t\` seconds until the budget starts again). Every answer carries \`X-Request-Id\`.`;

const TAGS: ReadonlyArray<[string, string]> = [
  ['accounts', 'Sign-up, bearer tokens and the calling account'],
  ['projects', 'The projects the calling account is a member of, each with its whole tree'],
  ['members', "A project's members and their roles: who may read it, write it, manage it"],
  ['presence', 'Who has a project open, and where in it they are'],
  ['blocks', 'Blocks of a project, each with its rows'],
  ['rows', 'Rows of a block, each with its columns'],
  ['columns', "Columns of a row: a row's column sizes add up to at most 12"],
  ['contents', 'Contents of a column: text, image, video, quote or empty'],
  [
    'history',
    "A project's revisions, its past states, restore (undo) and its live changes (Server-Sent Events)",
  ],
  [
    'publishing',
    'A project rendered as a web page, and share links that show a revision of it without an account',
  ],
  ['assets', 'Images uploaded to the service and served from it'],
  ['health', 'Liveness and readiness, without a token'],
];

const PATH_PARAMETER_DESCRIPTIONS: Readonly<Record<string, string>> = {
  projectId: 'Id of the project',
  blockId: 'Id of the block',
  rowId: 'Id of the row',
  columnId: 'Id of the column',
  contentId: 'Id of the content',
  revision: 'Number of one of the project’s kept revisions',
  accountId: 'Id of the member’s account',
  token: 'The share link’s token, as its URL holds it',
};

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

function isReference(value: object): value is ReferenceObject {
  return '$ref' in value;
}

/**
 * Path ids are opaque strings; an id that names nothing answers 404 (never 400), so the document
 * says no more about their shape. A revision is a number (one not kept answers 404 too).
 */
function pathParameters(template: string): ParameterObject[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    description: PATH_PARAMETER_DESCRIPTIONS[name] ?? `Id of the ${name.replace(/Id$/, '')}`,
    ...(name === 'revision'
      ? { schema: { type: 'string', pattern: '^[1-9][0-9]*$' }, example: '7' }
      : { schema: { type: 'string' }, example: examplePath(`{${name}}`) }),
  }));
}

/** The path of the resource a create on `collection` makes, e.g. `/projects/{projectId}`. */
function createdResourcePath(document: OpenAPIObject, collection: string): string | undefined {
  return Object.keys(document.paths).find(
    (path) =>
      path.startsWith(`${collection}/{`) && !path.slice(collection.length + 1).includes('/'),
  );
}

/** The node a move or a copy acts on: where the moved node or the copy is (its `Location`). */
function nodeOfOperation(path: string): string | undefined {
  return /\/(move|duplicate)$/.test(path) ? path.replace(/\/(move|duplicate)$/, '') : undefined;
}

const REQUEST_ID: HeaderObject = {
  description:
    "The request's id: the caller's own `X-Request-Id` when it sent a sane one (up to 128 " +
    'letters, digits and `._-`), else a new UUID. Every log line of the request carries it.',
  required: true,
  schema: { type: 'string', example: '0190a6f0-9b2c-7d4e-8f60-1a2b3c4d5e6f' },
};

const RATE_LIMIT: HeaderObject = {
  description:
    'What is left of the budget this request counted against (IETF RateLimit field): `r` ' +
    'requests, for `t` more seconds. Absent when the request was not counted (a missing or ' +
    'invalid token).',
  required: false,
  schema: {
    type: 'string',
    pattern: '^"(account|address|shared)";r=\\d+;t=\\d+$',
    example: '"account";r=1187;t=42',
  },
};

const RATE_LIMIT_POLICY: HeaderObject = {
  description:
    'The budget this request counted against (IETF RateLimit-Policy field): `q` requests per ' +
    '`w` seconds, per account (`account`, calls with a token) or per client address ' +
    '(`address`, sign-up and token; `shared`, the opens of share links). Absent when the ' +
    'request was not counted.',
  required: false,
  schema: {
    type: 'string',
    pattern: '^"(account|address|shared)";q=\\d+;w=\\d+$',
    example: '"account";q=1200;w=60',
  },
};

/**
 * The headers every response of the operation carries, or may: `X-Request-Id` always, the
 * RateLimit fields on every operation the budgets count: all that take a token, and the public
 * ones but health and an asset's bytes.
 */
function commonHeaders(path: string, operation: OperationObject): Record<string, HeaderObject> {
  const takesToken = (operation.security?.length ?? 0) > 0;
  return {
    'X-Request-Id': REQUEST_ID,
    ...(!takesToken && isUnlimitedRoute(path)
      ? {}
      : { RateLimit: RATE_LIMIT, 'RateLimit-Policy': RATE_LIMIT_POLICY }),
  };
}

const CACHE_CONTROL: Readonly<Record<string, HeaderObject>> = {
  [NO_STORE]: {
    description:
      'No cache may keep this answer: it carries a token or tells whether a password was right ' +
      '(RFC 6749 §5.1, RFC 9111).',
    required: true,
    schema: { type: 'string', enum: [NO_STORE] },
  },
  [PRIVATE_REVALIDATED]: {
    description:
      "An account's own document: a browser may keep it, and revalidates it with its `ETag` " +
      '(`If-None-Match`) before each use; no shared cache serves it.',
    required: true,
    schema: { type: 'string', enum: [PRIVATE_REVALIDATED] },
  },
};

/**
 * `Cache-Control` of a response (see bootstrap/cache-control.ts): what the operation names for
 * all its answers (`@NoStore()`), else `private, no-cache` on a read's 200 and 304 under a token.
 */
function cacheControl(
  operation: OperationObject,
  method: string,
  status: string,
): HeaderObject | undefined {
  const named = (operation as unknown as Record<string, unknown>)[CACHE_CONTROL_EXTENSION];
  if (typeof named === 'string') return CACHE_CONTROL[named];
  const protectedRead = method === 'get' && (operation.security?.length ?? 0) > 0;
  return protectedRead && (status === '200' || status === '304')
    ? CACHE_CONTROL[PRIVATE_REVALIDATED]
    : undefined;
}

/**
 * What the decorators cannot know: the paths (parameters, `instance`, `Location` examples), and
 * the headers of every response.
 */
function completeOperations(document: OpenAPIObject): void {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation === undefined) continue;
      const others = (operation.parameters ?? []).filter(
        (parameter) => isReference(parameter) || parameter.in !== 'path',
      );
      operation.parameters = [...pathParameters(path), ...others];
      // Said, not implied: an operation without a bearer requirement needs no token at all.
      operation.security ??= [];

      for (const [status, response] of Object.entries(operation.responses)) {
        if (response === undefined || isReference(response)) continue;
        const problems = response.content?.[PROBLEM_CONTENT_TYPE]?.examples ?? {};
        for (const example of Object.values(problems)) {
          if (isReference(example)) continue;
          const value = example.value as { instance?: string };
          if (value.instance === INSTANCE_PLACEHOLDER) value.instance = examplePath(path);
        }
        const caching = cacheControl(operation, method, status);
        // A copy: the decorators of a controller class share one response object among its
        // operations, whose headers differ.
        const headers: Record<string, HeaderObject | ReferenceObject> = {
          ...response.headers,
          ...commonHeaders(path, operation),
          ...(caching ? { 'Cache-Control': caching } : {}),
        };
        operation.responses[status] = { ...response, headers };
        const location = headers.Location;
        const target = createdResourcePath(document, path) ?? nodeOfOperation(path);
        if (['200', '201'].includes(status) && location && !isReference(location) && target) {
          location.example = examplePath(target);
        }
      }
      // Said by the responses' headers now; an extension would be noise to other tools.
      delete (operation as unknown as Record<string, unknown>)[CACHE_CONTROL_EXTENSION];
    }
  }
}

/**
 * The OpenAPI document of the application: what the controllers, the DTO library and the swagger
 * plugin's metadata say, completed with the library's constraints and the paths. Served at
 * /docs/openapi.json and committed as openapi.json (npm run openapi:snapshot).
 */
export async function buildOpenApiDocument(app: INestApplication): Promise<OpenAPIObject> {
  await ensurePluginMetadata();
  const builder = new DocumentBuilder()
    .setTitle('Proposal page layout service')
    .setDescription(DESCRIPTION)
    .setVersion('1')
    // The paths sit at the root of whatever origin serves this document.
    .addServer('/', 'The server that serves this document')
    .addBearerAuth({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'opaque',
      description:
        'A token from `POST /accounts/auth/token` (valid one hour by default): paste the ' +
        '`token` member, without the `Bearer ` prefix.',
    });
  for (const [name, description] of TAGS) builder.addTag(name, description);

  const document = SwaggerModule.createDocument(app, builder.build(), {
    extraModels: modelsReferencedByHints(),
    operationIdFactory: (controller, method) =>
      `${controller.replace(/Controller$/, '')}_${method}`,
  });
  applySchemaHints(document);
  applyLeastRoles(document);
  completeOperations(document);
  // Proprietary, as package.json says; set here, as the builder would add empty URLs.
  document.info.license = { name: 'UNLICENSED (proprietary)' };
  document.info.contact = { name: 'The proposal page layout team' };
  return document;
}
