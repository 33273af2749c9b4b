import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { assertDocumentedResponse } from './support/openapi-validator';
import { Api, startTestApp } from './support/test-app';

/**
 * The OpenAPI document: the served one is the committed openapi.json (so every change to the
 * HTTP interface shows in review), and it describes every operation completely. That responses
 * agree with it is checked on every request of the suite (support/openapi-validator.ts).
 */

type Json = Record<string, any>;

// npm runs the suite from the repository root.
const SNAPSHOT = join(process.cwd(), 'openapi.json');
const REFRESH = 'npm run openapi:snapshot';
const PUBLIC_OPERATIONS = new Set([
  'POST /accounts',
  'POST /accounts/auth/token',
  'GET /health/live',
  'GET /health/ready',
  // An asset's bytes and a share link's page: anyone with the URL.
  'GET /assets/{assetId}',
  'GET /shared/{token}',
]);
const RESOURCE_TAGS = [
  'accounts',
  'projects',
  'members',
  'presence',
  'blocks',
  'rows',
  'columns',
  'contents',
  'history',
  'publishing',
  'assets',
  'health',
];
/** A project's revisions, past states, restore and event stream. */
const HISTORY = /\/(revisions|events)(\/|$)/;
/** Who is on a project: its members, and who has it open. */
const TEAM = /\/(members|presence)(\/|$)/;
/** A project sent out: its rendered pages, its share links, and a link's page. */
const PUBLISHING = /\/(render|links)(\/|$)|^\/shared\//;
/** Answers that name their own caching: an asset's bytes (anyone's, forever), a shared page. */
const OWN_CACHING: Record<string, { statuses: string[]; policy: string }> = {
  'GET /assets/{assetId}': {
    statuses: ['200', '206', '304'],
    policy: 'public, max-age=31536000, immutable',
  },
  'GET /shared/{token}': { statuses: ['200', '304'], policy: 'private, max-age=60' },
};
const PROBLEM_SCHEMA_REF = '#/components/schemas/ProblemDetailsResponse';

interface Operation {
  key: string;
  path: string;
  method: string;
  operation: Json;
}

/** Where two JSON values differ, as `pointer: committed → served` lines. */
function differences(committed: unknown, served: unknown, pointer = ''): string[] {
  if (JSON.stringify(committed) === JSON.stringify(served)) return [];
  const bothObjects =
    typeof committed === 'object' &&
    committed !== null &&
    typeof served === 'object' &&
    served !== null &&
    Array.isArray(committed) === Array.isArray(served);
  if (!bothObjects) {
    const show = (value: unknown) =>
      value === undefined ? '(absent)' : JSON.stringify(value).slice(0, 120);
    return [`${pointer || '/'}: ${show(committed)} → ${show(served)}`];
  }
  const keys = new Set([...Object.keys(committed), ...Object.keys(served)]);
  return [...keys].flatMap((key) =>
    differences(
      (committed as Json)[key],
      (served as Json)[key],
      `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`,
    ),
  );
}

const STYLE = {
  backgroundImage: '',
  backgroundRepeat: 'no-repeat',
  backgroundSize: 'cover',
  backgroundPosition: 'center center',
  opacity: 1,
};

describe('the OpenAPI document', () => {
  let app: NestFastifyApplication;
  let api: Api;
  let served: Json;
  let operations: Operation[];
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);

  beforeAll(async () => {
    app = await startTestApp();
    api = new Api(app);
    const response = await api.get('/docs/openapi.json');
    expect(response.status).toBe(200);
    served = response.body;
    ajv.addSchema({ components: served.components }, 'openapi.json');
    operations = Object.entries<Json>(served.paths).flatMap(([path, item]) =>
      Object.entries<Json>(item).map(([method, operation]) => ({
        key: `${method.toUpperCase()} ${path}`,
        path,
        method: method.toUpperCase(),
        operation,
      })),
    );
  });
  afterAll(() => app.close());

  const compiled = new Map<string, ValidateFunction>();
  /** Validates against a schema of the served document (its references resolved there). */
  const validate = (schema: Json, value: unknown): string | undefined => {
    const text = JSON.stringify(schema).replace(/"#\/components\//g, '"openapi.json#/components/');
    let check = compiled.get(text);
    if (check === undefined) {
      check = ajv.compile(JSON.parse(text) as Json);
      compiled.set(text, check);
    }
    return check(value) ? undefined : ajv.errorsText(check.errors);
  };

  const each = (test: (operation: Operation) => string[]) => {
    const problems = operations.flatMap((operation) =>
      test(operation).map((problem) => `${operation.key}: ${problem}`),
    );
    expect(problems).toEqual([]);
  };

  const CONTENT_TYPES = ['empty', 'text', 'image', 'video', 'quote'];
  const capitalised = (type: string) => `${type[0].toUpperCase()}${type.slice(1)}`;

  it.each([
    ['ContentResponse', (type: string) => `${capitalised(type)}ContentResponse`],
    ['CreateContentDto', (type: string) => `Create${capitalised(type)}ContentDto`],
    ['UpdateContentDto', (type: string) => `Update${capitalised(type)}ContentDto`],
    ['ColumnContentDto', (type: string) => `Column${capitalised(type)}ContentDto`],
  ])(
    'describes %s as a oneOf of complete variants, discriminated by type, each with its own data',
    (name, variantOf) => {
      const schemas = served.components.schemas as Json;
      const refs = CONTENT_TYPES.map((type) => `#/components/schemas/${variantOf(type)}`);
      // Nothing beside the variants: no base `data`, open or not.
      expect(schemas[name]).toEqual({
        oneOf: refs.map(($ref) => ({ $ref })),
        discriminator: {
          propertyName: 'type',
          mapping: Object.fromEntries(CONTENT_TYPES.map((type, i) => [type, refs[i]])),
        },
      });
      const members = Object.keys(schemas[variantOf('image')].properties as Json).sort();
      for (const type of CONTENT_TYPES) {
        const variant = schemas[variantOf(type)] as Json;
        expect(variant).toMatchObject({ type: 'object', additionalProperties: false });
        expect(variant.required).toContain('type');
        expect(Object.keys(variant.properties as Json).sort()).toEqual(members);
        expect(variant.properties.type).toEqual({ type: 'string', enum: [type] });
        expect(variant.properties.data.allOf).toEqual([
          { $ref: `#/components/schemas/${capitalised(type)}DataDto` },
        ]);
      }
    },
  );

  it('holds each content to the data of its type', () => {
    const response = { $ref: '#/components/schemas/ContentResponse' };
    const image = { _id: 'c1', type: 'image', style: STYLE, data: { url: 'https://e.com/a.png' } };
    expect(validate(response, image)).toBeUndefined();
    // Data of another type does not pass for this one.
    expect(validate(response, { ...image, data: { html: '<p>x</p>' } })).toBeDefined();
    expect(validate(response, { ...image, type: 'text' })).toBeDefined();
    expect(validate(response, { ...image, type: 'poem' })).toBeDefined();
    const column = { $ref: '#/components/schemas/ColumnResponse' };
    expect(validate(column, { _id: 'k', size: '6', contents: [image] })).toBeUndefined();
    expect(
      validate(column, { _id: 'k', size: '6', contents: [{ ...image, data: { html: 'x' } }] }),
    ).toBeDefined();
  });

  it('is the committed openapi.json', () => {
    let committed: unknown;
    try {
      committed = JSON.parse(readFileSync(SNAPSHOT, 'utf8'));
    } catch (error) {
      throw new Error(`openapi.json cannot be read (${String(error)}); write it with: ${REFRESH}`);
    }
    const found = differences(committed, served);
    if (found.length > 0) {
      throw new Error(
        `The served /docs/openapi.json differs from the committed openapi.json in ` +
          `${found.length} place(s) (committed → served):\n  ${found.slice(0, 25).join('\n  ')}` +
          `${found.length > 25 ? `\n  … and ${found.length - 25} more` : ''}\n` +
          `If the change is intended, refresh the snapshot and commit it: ${REFRESH}`,
      );
    }
  });

  it('describes 65 operations, each with a summary, a description, an id and its resource tag', () => {
    expect(operations).toHaveLength(65);
    each(({ path, operation }) => {
      const problems: string[] = [];
      if (!operation.summary) problems.push('no summary');
      if (!operation.description) problems.push('no description');
      if (!operation.operationId) problems.push('no operationId');
      const tags = operation.tags as string[] | undefined;
      if (tags?.length !== 1 || !RESOURCE_TAGS.includes(tags[0])) {
        problems.push(`tags ${JSON.stringify(tags)}`);
      }
      // The resource is the last collection on the path (`/accounts/auth/me` is an account's, a
      // batch its project's, `…/contents/{contentId}/move` a content's).
      const collections = path
        .replace(/\/(move|duplicate|batch)$/, '')
        .split('/')
        .filter((segment) => /^\w+$/.test(segment));
      // A project's revisions and its events are its history.
      const expected = PUBLISHING.test(path)
        ? 'publishing'
        : HISTORY.test(path)
          ? 'history'
          : path.startsWith('/projects')
            ? collections.pop()
            : collections[0];
      if (tags?.[0] !== expected) problems.push(`tagged ${tags?.[0]}, expected ${expected}`);
      return problems;
    });
    expect(served.tags.map((tag: Json) => tag.name)).toEqual(RESOURCE_TAGS);
  });

  it('puts the bearer scheme on every protected operation and on no public one', () => {
    expect(served.components.securitySchemes.bearer).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    each(({ key, operation }) => {
      const isPublic = PUBLIC_OPERATIONS.has(key);
      const security = JSON.stringify(operation.security ?? []);
      if (isPublic && security !== '[]') return [`public, but security ${security}`];
      if (!isPublic && security !== '[{"bearer":[]}]')
        return [`protected, but security ${security}`];
      return [];
    });
    const token = served.paths['/accounts/auth/token'].post.description as string;
    expect(token).toMatch(/Authorize/);
    expect(token).toMatch(/token/);
  });

  it('documents the error statuses each operation can give', () => {
    each(({ key, path, method, operation }) => {
      const statuses = Object.keys(operation.responses);
      const expected = new Set<string>();
      // Health probes are never rate limited; every operation, liveness included, answers 503
      // while the instance shuts down.
      // Neither are an asset's bytes, which a page loads many at a time.
      if (!path.startsWith('/health') && key !== 'GET /assets/{assetId}') expected.add('429');
      expected.add('503');
      if (!PUBLIC_OPERATIONS.has(key) || key === 'POST /accounts/auth/token') expected.add('401');
      if (path.includes('{') || key === 'POST /accounts') expected.add('404');
      if (operation.requestBody) ['400', '413', '415'].forEach((status) => expected.add(status));
      // Every operation refuses an unknown query parameter (400 validation).
      expected.add('400');
      const tree =
        path.startsWith('/projects') &&
        !HISTORY.test(path) &&
        !PUBLISHING.test(path) &&
        !TEAM.test(path);
      const restore = path.endsWith('/restore');
      // Every change of the tree may hit a limit (the column's sizes, a count, the tree's size).
      if ((tree && ['POST', 'PUT'].includes(method)) || restore) expected.add('409');
      // Every create of the tree takes an Idempotency-Key (422 when reused for another request).
      if (tree && method === 'POST') expected.add('422');
      // Every PUT, DELETE, move, copy, restore and batch honours If-Match, and with
      // REQUIRE_IF_MATCH insists on it.
      if (
        restore ||
        (tree && (['PUT', 'DELETE'].includes(method) || /\/(move|duplicate|batch)$/.test(path)))
      )
        ['412', '428'].forEach((s) => expected.add(s));
      if (key === 'POST /accounts') expected.add('409');
      // The limits of links per project and of an account's assets; an asset still named.
      if (
        ['POST /projects/{projectId}/links', 'POST /assets', 'DELETE /assets/{assetId}'].includes(
          key,
        )
      ) {
        expected.add('409');
      }
      // A range past an asset's end.
      if (key === 'GET /assets/{assetId}') expected.add('416');
      // A wrong current password; a token too old to delete the account with.
      if (key === 'PUT /accounts/auth/me/password' || key === 'DELETE /accounts/auth/me') {
        expected.add('403');
      }
      // A member without the least role (members/policy); removing another member but oneself
      // is the owner's, and `editing` an editor's.
      if (
        ['editor', 'owner'].includes(operation['x-least-role'] as string) ||
        key === 'DELETE /projects/{projectId}/members/{accountId}' ||
        key === 'PUT /projects/{projectId}/presence'
      ) {
        expected.add('403');
      }
      // A member added twice, or past 100; the owner leaving, or giving up its role; the new
      // owner past its 10 000 projects.
      if (/\/members(\/|$)/.test(path) && method !== 'GET') expected.add('409');
      const errors = statuses.filter((status) => Number(status) >= 400);
      const missing = [...expected].filter((status) => !errors.includes(status));
      const extra = errors.filter((status) => !expected.has(status));
      return [
        ...missing.map((status) => `does not document ${status}`),
        ...extra.map((status) => `documents ${status}, which it cannot give`),
      ];
    });
  });

  it('gives every error response the problem+json schema, its headers and one example per kind', () => {
    each(({ key, operation }) => {
      const problems: string[] = [];
      for (const [status, response] of Object.entries<Json>(operation.responses)) {
        if (Number(status) < 400) continue;
        const content = response.content ?? {};
        // A share link's 404 is also a small page, for a browser.
        const pages = key === 'GET /shared/{token}' && status === '404' ? ['text/html'] : [];
        const contentTypes = Object.keys(content).filter((type) => !pages.includes(type));
        if (contentTypes.join() !== 'application/problem+json') {
          problems.push(`${status}: content ${Object.keys(content).join()}`);
          continue;
        }
        const { schema, examples } = content['application/problem+json'];
        if (schema.allOf?.[0]?.$ref !== PROBLEM_SCHEMA_REF) {
          problems.push(`${status}: not a ProblemDetailsResponse`);
        }
        const kinds: Json[] = schema.oneOf ?? [schema];
        const types = kinds.map((kind) => kind.properties.type.enum[0] as string);
        const exampleTypes = Object.values<Json>(examples ?? {}).map(
          (example) => example.value.type,
        );
        if (JSON.stringify(exampleTypes) !== JSON.stringify(types)) {
          problems.push(`${status}: examples ${exampleTypes.join()} for kinds ${types.join()}`);
        }
        for (const [name, example] of Object.entries<Json>(examples ?? {})) {
          const invalid = validate(schema, example.value);
          if (invalid) problems.push(`${status}: example ${name}: ${invalid}`);
          if (example.value.status !== Number(status)) problems.push(`${status}: example ${name}`);
        }
        const header = (name: string) => response.headers?.[name];
        if (
          types.includes('/problems/unauthorized') &&
          header('WWW-Authenticate')?.required !== true
        ) {
          problems.push(`${status}: no WWW-Authenticate`);
        }
        if (['429', '503'].includes(status) && header('Retry-After')?.required !== true) {
          problems.push(`${status}: no Retry-After`);
        }
      }
      return problems;
    });
  });

  it('says Cache-Control: no-store on every answer with a token or a password outcome, private on reads', () => {
    const NO_STORE = new Set([
      'POST /accounts',
      'POST /accounts/auth/token',
      'PUT /accounts/auth/me/password',
      // A ticket is a credential; a stream is no document to keep.
      'POST /projects/{projectId}/events/tickets',
      'GET /projects/{projectId}/events',
    ]);
    each(({ key, method, operation }) => {
      const problems: string[] = [];
      const protectedRead = method === 'GET' && !PUBLIC_OPERATIONS.has(key);
      for (const [status, response] of Object.entries<Json>(operation.responses)) {
        const header = response.headers?.['Cache-Control'] as Json | undefined;
        const own = OWN_CACHING[key];
        const expected = NO_STORE.has(key)
          ? 'no-store'
          : own
            ? own.statuses.includes(status)
              ? own.policy
              : undefined
            : protectedRead && ['200', '304'].includes(status)
              ? 'private, no-cache'
              : undefined;
        const said = header?.required === true ? header.schema?.enum?.join() : undefined;
        if (said !== expected)
          problems.push(`${status}: Cache-Control ${said}, expected ${expected}`);
      }
      return problems;
    });
  });

  it('gives every success response its schema and an example; 201 and a move a Location, 204 no body', () => {
    each(({ key, operation }) => {
      const problems: string[] = [];
      const successes = Object.entries<Json>(operation.responses).filter(
        ([status]) => Number(status) < 300,
      );
      // An upload answers 201, or 200 for bytes the account had; an asset's bytes 200, or 206.
      const twoSuccesses = ['POST /assets', 'GET /assets/{assetId}'].includes(key);
      if (successes.length !== (twoSuccesses ? 2 : 1)) {
        problems.push(`${successes.length} success responses`);
      }
      // Reads of the tree and of the calling account are tagged and conditional: 304 without a
      // body, with the tag. The event stream is no document, and a ticket no node of the tree.
      const stream = key === 'GET /projects/{projectId}/events';
      const ticket = key === 'POST /projects/{projectId}/events/tickets';
      const tagged =
        (key.startsWith('GET /projects') && !stream) ||
        [
          'GET /accounts/auth/me',
          'GET /assets',
          'GET /assets/{assetId}',
          'GET /shared/{token}',
        ].includes(key);
      // Pages are HTML, an asset's bytes an image; everything else JSON.
      const html = /\/render$/.test(key) || key === 'GET /shared/{token}';
      const image = key === 'GET /assets/{assetId}';
      const notModified = operation.responses['304'] as Json | undefined;
      if (tagged !== (notModified !== undefined)) problems.push(`304 documented: ${!tagged}`);
      if (notModified && (notModified.content || notModified.headers?.ETag?.required !== true)) {
        problems.push('304 with a body or without its ETag');
      }
      for (const [status, response] of successes) {
        if (!response.description) problems.push(`${status}: no description`);
        const headers = Object.keys(response.headers ?? {});
        // Members and presence are no part of the tree: they change no revision, no tag.
        const change =
          /^(POST|PUT|DELETE) \/projects/.test(key) &&
          !ticket &&
          !PUBLISHING.test(key) &&
          !TEAM.test(key);
        if (tagged || (change && !key.startsWith('DELETE') && status !== '204')) {
          if (!headers.includes('ETag')) problems.push(`${status} without ETag`);
        }
        if (change && !headers.includes('Project-Revision')) {
          problems.push(`${status} without Project-Revision`);
        }
        if (stream) {
          if (!response.content?.['text/event-stream']) problems.push(`${status}: not a stream`);
          continue;
        }
        if (status === '204') {
          if (response.content) problems.push('204 with a body');
          continue;
        }
        if (html || image) {
          const types = html
            ? ['text/html']
            : ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif'];
          const missing = types.filter((type) => !response.content?.[type]?.schema);
          if (missing.length > 0) problems.push(`${status}: no ${missing.join()} schema`);
          continue;
        }
        const media = response.content?.['application/json'];
        if (!media?.schema) {
          problems.push(`${status}: no application/json schema`);
          continue;
        }
        if (media.example === undefined) problems.push(`${status}: no example`);
        const invalid = validate(media.schema, media.example);
        if (invalid) problems.push(`${status}: the example does not match: ${invalid}`);
        const location = response.headers?.Location;
        // A create or a copy says where the new resource is, a move where the node went.
        if ((status === '201' && key !== 'POST /accounts' && !ticket) || / \S+\/move$/.test(key)) {
          if (location?.required !== true) problems.push('201 without Location');
          else if (
            !String(location.example).startsWith(key === 'POST /assets' ? '/assets/' : '/projects')
          ) {
            problems.push(`Location example ${location.example}`);
          }
        }
      }
      return problems;
    });
  });

  it('closes every schema and gives every request body member a type and its constraints', () => {
    const schemas = served.components.schemas as Json;
    const problems: string[] = [];
    for (const [name, schema] of Object.entries<Json>(schemas)) {
      // A union of variants is closed when its variants are (each is checked on its own).
      const union = schema.oneOf?.every((variant: Json) => variant.$ref !== undefined);
      if (!union && schema.additionalProperties !== false) problems.push(`${name} is open`);
    }
    const bodies = operations
      .map(({ operation }) => operation.requestBody?.content?.['application/json']?.schema?.$ref)
      .filter((ref): ref is string => ref !== undefined);
    const seen = new Set<string>();
    const visit = (ref: string) => {
      const name = ref.split('/').pop() as string;
      if (seen.has(name)) return;
      seen.add(name);
      for (const variant of (schemas[name].oneOf ?? []) as Json[]) visit(variant.$ref as string);
      for (const [member, schema] of Object.entries<Json>(schemas[name].properties ?? {})) {
        const text = JSON.stringify(schema);
        if (!/"(type|\$ref|oneOf|anyOf|enum)"/.test(text) || schema.type === 'object') {
          problems.push(`${name}.${member} has no precise type: ${text}`);
        }
        [...text.matchAll(/"\$ref":"([^"]+)"/g)].forEach(([, nested]) => visit(nested));
      }
    };
    bodies.forEach(visit);
    expect(problems).toEqual([]);
    expect(seen.size).toBeGreaterThan(15);
  });

  it('carries the contract constraints in the request bodies', () => {
    const schemas = served.components.schemas as Json;
    const member = (name: string, prop: string) => schemas[name].properties[prop];

    expect(member('SignUpDto', 'username')).toMatchObject({ minLength: 3, maxLength: 254 });
    expect(member('SignUpDto', 'password')).toMatchObject({ minLength: 8, maxLength: 256 });
    expect(schemas.SignUpDto.required).toEqual(['username', 'password']);
    expect(member('CreateProjectDto', 'title')).toMatchObject({ minLength: 1, maxLength: 200 });
    expect(schemas.CreateProjectDto.required).toEqual(['title']);
    expect(schemas.UpdateProjectDto.required).toBeUndefined();
    expect(member('CreateBlockDto', 'description')).toMatchObject({ maxLength: 500 });
    expect(schemas.CreateBlockDto.required).toEqual(['description']);
    expect(member('CreateRowDto', 'position')).toMatchObject({ type: 'integer', minimum: 0 });
    expect(member('BlockStyleDto', 'opacity')).toMatchObject({ minimum: 0, maximum: 1 });
    expect(member('ContentStyleDto', 'backgroundRepeat').enum).toEqual([
      'repeat',
      'repeat-x',
      'repeat-y',
      'no-repeat',
      'space',
      'round',
    ]);
    // "", an http(s) URL, or an uploaded asset's path.
    expect(member('ContentStyleDto', 'backgroundImage').oneOf).toHaveLength(3);
    expect(member('ImageDataDto', 'url').oneOf[0]).toMatchObject({
      format: 'uri',
      maxLength: 2048,
    });
    expect(member('ImageDataDto', 'url').oneOf[1].pattern).toMatch(/^\^\\\/assets/);
    expect(member('VideoDataDto', 'provider').enum).toEqual([
      'youtube',
      'vimeo',
      'wistia',
      'loom',
      'file',
    ]);
    expect(member('QuoteOptionsDto', 'currency')).toMatchObject({ pattern: '^[A-Z]{3}$' });
    expect(member('QuoteContentDto', 'fields')).toMatchObject({ maxItems: 20 });
    expect(member('QuoteContentDto', 'items')).toMatchObject({ maxItems: 1000 });
    expect(member('TextDataDto', 'html')).toMatchObject({ maxLength: 100000 });

    // The size: an integer 1..12 or its string form.
    for (const dto of ['CreateColumnDto', 'UpdateColumnDto']) {
      const size = member(dto, 'size');
      expect(size.type).toBeUndefined();
      expect([validate(size, 6), validate(size, '12')]).toEqual([undefined, undefined]);
      const accepted = [0, 13, 6.5, '6.5', 'six', '06', true, null].filter(
        (wrong) => validate(size, wrong) === undefined,
      );
      expect(accepted).toEqual([]);
    }

    // Each content type with the data of that type, on every content body.
    for (const dto of ['CreateContentDto', 'UpdateContentDto', 'ColumnContentDto']) {
      for (const { $ref } of schemas[dto].oneOf as Json[]) {
        expect(schemas[($ref as string).split('/').pop() as string].required).toEqual(['type']);
      }
      const ok = (value: Json) => validate({ $ref: `#/components/schemas/${dto}` }, value);
      expect(ok({ type: 'text', data: { html: '<p>Hi</p>' } })).toBeUndefined();
      expect(ok({ type: 'empty', data: {} })).toBeUndefined();
      expect(ok({ type: 'video', data: { url: 'https://youtu.be/x', provider: 'youtube' } })).toBe(
        undefined,
      );
      expect(ok({ type: 'empty', data: { html: '<p>Hi</p>' } })).toBeDefined();
      expect(ok({ type: 'text', data: { url: 'https://example.com' } })).toBeDefined();
      expect(ok({ type: 'poem' })).toBeDefined();
    }
  });

  describe('the check every e2e response goes through', () => {
    const baseUrl = () => {
      const address = app.getHttpServer().address();
      return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    };
    const json = { 'content-type': 'application/json; charset=utf-8' };
    const problemJson = { 'content-type': 'application/problem+json; charset=utf-8' };
    const project = {
      _id: 'x',
      title: 'Proposal',
      revision: 3,
      createdAt: '2026-11-22T10:15:30.000Z',
      updatedAt: '2026-11-22T10:15:30.000Z',
      role: 'owner',
    };
    const check = (response: Json) =>
      assertDocumentedResponse(baseUrl(), {
        method: 'GET',
        url: '/projects',
        status: 200,
        headers: {
          ...json,
          etag: '"p0"',
          'x-request-id': 'r1',
          'cache-control': 'private, no-cache',
        },
        text: JSON.stringify([project]),
        ...response,
      });

    it('accepts a documented response', async () => {
      await expect(check({})).resolves.toBeUndefined();
    });

    it.each([
      ['an undocumented status', { status: 418 }, /status 418 is not documented/],
      ['an undocumented content type', { headers: { 'content-type': 'text/html' } }, /text\/html/],
      ['a member too many', { text: JSON.stringify([{ ...project, owner: 'x' }]) }, /additional/],
      ['a member missing', { text: JSON.stringify([{ _id: 'x' }]) }, /required/],
      ['a 200 without its ETag', { headers: json }, /ETag/],
      [
        'a private read that a shared cache may keep',
        { headers: { ...json, etag: '"p0"', 'cache-control': 'public, max-age=60' } },
        /Cache-Control/,
      ],
      ['a 304 with a body', { status: 304 }, /without a body/],
      [
        'a body on a 204',
        { method: 'DELETE', url: '/projects/x', status: 204, headers: { 'project-revision': '4' } },
        /without a body/,
      ],
      [
        'a 204 without its revision',
        { method: 'DELETE', url: '/projects/x', status: 204, headers: {}, text: '' },
        /Project-Revision/,
      ],
      [
        'a 201 without Location',
        { method: 'POST', status: 201, text: JSON.stringify({ ...project, blocks: [] }) },
        /Location/,
      ],
      [
        'a 401 without its challenge',
        { status: 401, headers: problemJson, text: JSON.stringify({}) },
        /WWW-Authenticate/,
      ],
      ['an unknown route that answers', { url: '/nowhere' }, /must answer 404/],
      [
        'an unknown route with another problem',
        {
          url: '/nowhere',
          status: 404,
          headers: problemJson,
          text: JSON.stringify({ type: '/problems/internal', title: 'x', status: 404 }),
        },
        /allowed values/,
      ],
    ])('refuses %s', async (_, response, message) => {
      await expect(check(response)).rejects.toThrow(message);
    });
  });
});
