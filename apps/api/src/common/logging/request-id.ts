import { randomUUID } from 'node:crypto';

const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** The request's id: the caller's X-Request-Id when it is sane, otherwise a new UUID. */
export function requestIdFrom(header: string | string[] | undefined): string {
  return typeof header === 'string' && SANE_REQUEST_ID.test(header) ? header : randomUUID();
}

export const REQUEST_ID_HEADER = 'x-request-id';
