import { HttpException, NotFoundException } from '@nestjs/common';
import { errorCodes } from 'fastify';
import {
  AuthenticationRequiredError,
  DatabaseUnavailableError,
  DomainError,
  LimitExceededError,
  PreconditionFailedError,
  PreconditionRequiredError,
  RequestValidationError,
  ResourceNotFoundError,
} from '../errors';
import { toProblem } from './problem';

const INSTANCE = '/projects/p1/blocks/b1/rows/r1/columns';

/** Wrapped the way Nest's Fastify adapter hands Fastify's own errors to the exception filter. */
const wrapped = (cause: Error & { statusCode?: number }) =>
  new HttpException(cause.message, cause.statusCode ?? 500, { cause });

describe('toProblem', () => {
  describe('domain errors', () => {
    it('RequestValidationError → 400 validation with the field errors', () => {
      const errors = [{ pointer: '/size', detail: 'must be an integer from 1 to 12' }];
      const problem = toProblem(new RequestValidationError(errors), INSTANCE);
      expect(problem.status).toBe(400);
      expect(problem.headers).toEqual({});
      expect(problem.body).toMatchObject({
        type: '/problems/validation',
        title: 'Invalid request body',
        status: 400,
        instance: INSTANCE,
        errors,
      });
      expect(problem.body.detail).toEqual(expect.stringContaining('size'));
      expect(problem.unexpected).toBeUndefined();
    });

    it('ResourceNotFoundError → 404 not-found', () => {
      const problem = toProblem(new ResourceNotFoundError('Column'), INSTANCE);
      expect(problem.status).toBe(404);
      expect(problem.body).toMatchObject({
        type: '/problems/not-found',
        status: 404,
        detail: 'Column not found',
      });
    });

    it('PreconditionFailedError → 412 precondition-failed with the current tag as ETag', () => {
      const problem = toProblem(new PreconditionFailedError('"r8"'), INSTANCE);
      expect(problem.status).toBe(412);
      expect(problem.headers).toEqual({ etag: '"r8"' });
      expect(problem.body).toMatchObject({
        type: '/problems/precondition-failed',
        title: 'Precondition failed',
        status: 412,
        instance: INSTANCE,
      });
      expect(problem.body.detail).toEqual(expect.any(String));
      expect(problem.unexpected).toBeUndefined();
    });

    it('PreconditionRequiredError → 428 precondition-required', () => {
      const problem = toProblem(new PreconditionRequiredError(), INSTANCE);
      expect(problem.status).toBe(428);
      expect(problem.headers).toEqual({});
      expect(problem.body).toMatchObject({
        type: '/problems/precondition-required',
        title: 'Precondition required',
        status: 428,
      });
      expect(problem.body.detail).toContain('If-Match');
    });

    it('LimitExceededError → 409 limit-exceeded with limit', () => {
      const problem = toProblem(
        new LimitExceededError(500, 'A project holds at most 500'),
        INSTANCE,
      );
      expect(problem.status).toBe(409);
      expect(problem.headers).toEqual({});
      expect(problem.body).toMatchObject({
        type: '/problems/limit-exceeded',
        title: 'Limit exceeded',
        status: 409,
        detail: 'A project holds at most 500',
        limit: 500,
      });
    });

    it('LimitExceededError on the tree size → limit in bytes', () => {
      const problem = toProblem(new LimitExceededError(8 * 1024 * 1024, 'too big'), INSTANCE);
      expect(problem.body.limit).toBe(8388608);
    });

    it('AuthenticationRequiredError with bearerError → 401 and an RFC 6750 invalid_token challenge', () => {
      const problem = toProblem(
        new AuthenticationRequiredError('The token has expired', 'invalid_token'),
        INSTANCE,
      );
      expect(problem.status).toBe(401);
      expect(problem.body.type).toBe('/problems/unauthorized');
      expect(problem.headers['www-authenticate']).toMatch(/^Bearer /);
      expect(problem.headers['www-authenticate']).toContain('error="invalid_token"');
    });

    it('AuthenticationRequiredError without bearerError → a bare Bearer challenge', () => {
      const problem = toProblem(new AuthenticationRequiredError('A bearer token is required'), '/');
      expect(problem.status).toBe(401);
      expect(problem.headers['www-authenticate']).toMatch(/^Bearer /);
      expect(problem.headers['www-authenticate']).not.toContain('error=');
    });

    it('DatabaseUnavailableError → 503 database-unavailable with Retry-After', () => {
      const problem = toProblem(new DatabaseUnavailableError(), INSTANCE);
      expect(problem.status).toBe(503);
      expect(problem.body.type).toBe('/problems/database-unavailable');
      expect(Number(problem.headers['retry-after'])).toBeGreaterThan(0);
    });

    it('a DomainError is answered with the problem it names, its message the detail', () => {
      class NewError extends DomainError {
        constructor() {
          super('Said to the client');
        }

        problem() {
          return {
            kind: 'limitExceeded' as const,
            extensions: { limit: 7 },
            headers: { 'retry-after': '2' },
          };
        }
      }
      const problem = toProblem(new NewError(), INSTANCE);
      expect(problem.status).toBe(409);
      expect(problem.unexpected).toBeUndefined();
      expect(problem.headers).toEqual({ 'retry-after': '2' });
      expect(problem.body).toEqual({
        type: '/problems/limit-exceeded',
        title: expect.any(String) as string,
        status: 409,
        detail: 'Said to the client',
        instance: INSTANCE,
        limit: 7,
      });
    });
  });

  describe('a refusal of one part, answered as that part’s own', () => {
    /** A refusal of one part of a request, as a batch's operation or a tree's node is. */
    class PartRefusedError extends DomainError {
      constructor(
        readonly part: number,
        readonly refusal: unknown,
      ) {
        super(`Part ${part} was refused`);
      }

      problem() {
        return { refusal: this.refusal, extensions: { part: this.part } };
      }
    }

    it.each([
      [new RequestValidationError([{ pointer: '/size', detail: 'is required' }]), 400],
      [new ResourceNotFoundError('Row'), 404],
      [new PreconditionFailedError('"r5"'), 412],
      [new LimitExceededError(500, 'A block holds at most 500'), 409],
      [new DatabaseUnavailableError(), 503],
    ])(
      'of %p → its status %i, headers and members, with what names the part',
      (refusal, status) => {
        const alone = toProblem(refusal, INSTANCE);
        const problem = toProblem(new PartRefusedError(0, refusal), INSTANCE);
        expect(problem.status).toBe(status);
        expect(problem.headers).toEqual(alone.headers);
        expect(problem.logLevel).toBe(alone.logLevel);
        expect(problem.body).toEqual({ ...alone.body, part: 0 });
      },
    );

    it('of a refusal of a part → the innermost problem, with the members of both', () => {
      const refusal = new LimitExceededError(500, 'A project holds at most 500');
      const problem = toProblem(
        new PartRefusedError(1, new PartRefusedError(2, refusal)),
        INSTANCE,
      );
      expect(problem.body).toEqual({ ...toProblem(refusal, INSTANCE).body, part: 1 });
      expect(problem.status).toBe(409);
    });

    it('of a driver error meaning "unreachable" → 503, as alone', () => {
      const unreachable = Object.assign(new Error('connect ECONNREFUSED'), {
        code: 'ECONNREFUSED',
      });
      const problem = toProblem(new PartRefusedError(3, unreachable), INSTANCE);
      expect(problem.status).toBe(503);
      expect(problem.body).toMatchObject({ type: '/problems/database-unavailable', part: 3 });
    });

    it('of an error nobody anticipated → 500, still unexpected, nothing of it told', () => {
      const defect = new Error('column "secret" does not exist');
      const problem = toProblem(new PartRefusedError(2, defect), INSTANCE);
      expect(problem.status).toBe(500);
      expect(problem.unexpected).toBe(defect);
      expect(problem.body).toMatchObject({ type: '/problems/internal', part: 2 });
      expect(JSON.stringify(problem.body)).not.toContain('secret');
    });
  });

  describe('database unreachable', () => {
    it('a driver error meaning "unreachable" → 503 with Retry-After, not a 500', () => {
      const error = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
        code: 'ECONNREFUSED',
      });
      const problem = toProblem(error, INSTANCE);
      expect(problem.status).toBe(503);
      expect(problem.body.type).toBe('/problems/database-unavailable');
      expect(Number(problem.headers['retry-after'])).toBeGreaterThan(0);
      expect(problem.unexpected).toBeUndefined();
      expect(JSON.stringify(problem.body)).not.toContain('127.0.0.1');
    });
  });

  describe('Fastify errors wrapped by Nest', () => {
    it('FST_ERR_CTP_BODY_TOO_LARGE → 413 payload-too-large', () => {
      const problem = toProblem(wrapped(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE()), INSTANCE);
      expect(problem.status).toBe(413);
      expect(problem.body).toMatchObject({ type: '/problems/payload-too-large', status: 413 });
      expect(problem.body.errors).toBeUndefined(); // the whole body: no member to point at
    });

    it('FST_ERR_CTP_INVALID_MEDIA_TYPE → 415 unsupported-media-type', () => {
      const cause = new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE('text/plain');
      const problem = toProblem(wrapped(cause), INSTANCE);
      expect(problem.status).toBe(415);
      expect(problem.body).toMatchObject({ type: '/problems/unsupported-media-type', status: 415 });
    });

    it('a JSON syntax error (400) → malformed-json', () => {
      const problem = toProblem(wrapped(new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY()), INSTANCE);
      expect(problem.status).toBe(400);
      expect(problem.body).toMatchObject({ type: '/problems/malformed-json', status: 400 });
    });

    it('a plain SyntaxError with statusCode 400 from a body parser → malformed-json', () => {
      const cause = Object.assign(new SyntaxError('Unexpected token } in JSON at position 9'), {
        name: 'FastifyError',
        statusCode: 400,
      });
      const problem = toProblem(wrapped(cause), INSTANCE);
      expect(problem.status).toBe(400);
      expect(problem.body.type).toBe('/problems/malformed-json');
      expect(JSON.stringify(problem.body)).not.toContain('position 9');
    });

    it.each([
      ['FST_ERR_CTP_BODY_TOO_LARGE', 413, '/problems/payload-too-large'],
      ['FST_ERR_CTP_INVALID_MEDIA_TYPE', 415, '/problems/unsupported-media-type'],
    ])('a minimal FastifyError %s → %i', (code, status, type) => {
      const cause = Object.assign(new Error('from fastify'), {
        name: 'FastifyError',
        code,
        statusCode: status,
      });
      const problem = toProblem(new HttpException(cause.message, status, { cause }), INSTANCE);
      expect(problem.status).toBe(status);
      expect(problem.body.type).toBe(type);
    });
  });

  describe('other HttpExceptions', () => {
    it('NotFoundException (unknown route) → 404 not-found', () => {
      const problem = toProblem(new NotFoundException('Cannot GET /nowhere'), '/nowhere');
      expect(problem.status).toBe(404);
      expect(problem.body.type).toBe('/problems/not-found');
    });

    it('a 405 (a method the path does not have) → method-not-allowed, not not-found', () => {
      const problem = toProblem(new HttpException('PATCH is not a method of this path', 405), '/x');
      expect(problem.status).toBe(405);
      expect(problem.body).toMatchObject({
        type: '/problems/method-not-allowed',
        title: 'Method not allowed',
        status: 405,
        detail: 'PATCH is not a method of this path',
        instance: '/x',
      });
      expect(problem.unexpected).toBeUndefined();
    });

    it('a 403 from beneath (a static file server refusing `..`) → 404 not-found, not validation', () => {
      // What @fastify/send hands to reply.send for a path it refuses.
      const refused = Object.assign(new Error('Forbidden'), { status: 403, statusCode: 403 });
      for (const error of [refused, new HttpException('Forbidden', 403)]) {
        const problem = toProblem(error, '/docs/../package.json');
        expect(problem.status).toBe(404);
        expect(problem.body).toMatchObject({
          type: '/problems/not-found',
          detail: 'No resource has this path',
        });
      }
    });
  });

  describe('unknown errors', () => {
    it('an Error nobody anticipated → 500, flagged unexpected, with no detail in the body', () => {
      const error = new Error('column "secret" of /srv/app/dist/main.js does not exist');
      const problem = toProblem(error, INSTANCE);
      expect(problem.status).toBe(500);
      expect(problem.unexpected).toBe(error);
      expect(problem.body).toEqual({
        type: '/problems/internal',
        title: 'Internal server error',
        status: 500,
        detail: undefined,
        instance: INSTANCE,
      });
      const json = JSON.stringify(problem.body);
      for (const leak of ['secret', '/srv', 'main.js', 'at ']) expect(json).not.toContain(leak);
    });

    it('a thrown non-Error value → 500 unexpected', () => {
      const problem = toProblem('something odd', INSTANCE);
      expect(problem.status).toBe(500);
      expect(problem.unexpected).toBe('something odd');
      expect(problem.body.detail).toBeUndefined();
    });
  });
});
