import { hash } from 'node:crypto';
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { type FastifyRequest } from 'fastify';
import { stringify as canonicalJson } from 'safe-stable-stringify';
import { RequestValidationError } from '../errors';

/** Longest key taken: a UUID needs 36; room for any client's scheme. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
// A structured-field string (the draft's form, `"…"`), or the same characters unquoted.
const QUOTED = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/;
const BARE = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/** A create sent with `Idempotency-Key`: the key, and what identifies the request it goes with. */
export interface IdempotencyRequest {
  readonly key: string;
  /** SHA-256 (hex) of the method, the path and the body. */
  readonly fingerprint: string;
}

/**
 * The key of `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header: a structured-field
 * string, `"8e03978e-…"`; the same characters unquoted are taken too), or undefined without the
 * header. A malformed key answers 400.
 */
export function parseIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const value = (Array.isArray(header) ? header.join(',') : header).trim();
  const quoted = QUOTED.exec(value);
  const key = quoted ? quoted[1].replace(/\\(["\\])/g, '$1') : BARE.test(value) ? value : undefined;
  if (key === undefined || key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    throw new RequestValidationError(
      [],
      `The Idempotency-Key header must be a string of 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters, such as "8e03978e-40d5-43e8-bc93-6894a57f9324"`,
    );
  }
  return key;
}

/**
 * What identifies a request: its method, path and body as JSON with its members in one order, so
 * that a retry matches whatever order or spacing its client's serialiser gives the same body.
 */
export function fingerprintOf(method: string, path: string, body: unknown): string {
  return hash('sha256', `${method} ${path}\n${canonicalJson(body ?? null)}`, 'hex');
}

/**
 * The request's `Idempotency-Key` with its fingerprint, or undefined when it has none. Reads
 * the body as validated (the same JSON for the same request), so that a retry matches.
 */
export const Idempotency = createParamDecorator(
  (_data: unknown, context: ExecutionContext): IdempotencyRequest | undefined => {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const key = parseIdempotencyKey(request.headers['idempotency-key']);
    if (key === undefined) return undefined;
    const path = request.url.split('?')[0];
    return { key, fingerprint: fingerprintOf(request.method, path, request.body) };
  },
);
