import { hash, randomBytes } from 'node:crypto';

/** 256 random bits, base64url: the bearer token handed to the client once. */
export function newAccessToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * What is stored and looked up: a token cannot be recovered from the database. One-shot
 * `hash`, not a Hash object per request: such an object, native and wrapped, survives V8's
 * young-generation collections and carries the request's objects into the old generation.
 */
export function hashAccessToken(token: string): string {
  return hash('sha256', token, 'hex');
}
