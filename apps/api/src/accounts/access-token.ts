import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, base64url: the bearer token handed to the client once. */
export function newAccessToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored and looked up: a token cannot be recovered from the database. */
export function hashAccessToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
