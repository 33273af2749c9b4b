import { createHash, randomBytes } from 'node:crypto';

/** Random bytes of a link's token: 256 bits, far past guessing. */
const TOKEN_BYTES = 32;
/** What a token looks like (base64url of TOKEN_BYTES): anything else is no link. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** A new link's token, shown once in its URL. */
export function newLinkToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

/** What is stored of a token: its SHA-256, so that a leaked table opens no link. */
export function linkTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function isLinkToken(value: string): boolean {
  return TOKEN_SHAPE.test(value);
}

/** A link's URL, relative to the service. */
export const linkUrl = (token: string): string => `/shared/${token}`;
