/**
 * The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers): the budget, what is
 * left of it, and the seconds until it starts again.
 */
export function rateLimitHeaders(
  limit: number,
  remaining: number,
  resetSeconds: number,
): Record<string, string> {
  return {
    'ratelimit-limit': String(limit),
    'ratelimit-remaining': String(Math.max(0, remaining)),
    'ratelimit-reset': String(resetSeconds),
  };
}

/** Whole seconds until a window closes, at least 1 (what Retry-After and RateLimit-Reset carry). */
export function secondsUntil(resetInMs: number): number {
  return Math.max(1, Math.ceil(resetInMs / 1000));
}

/** The response headers CORS lets a browser app read. */
export const RATE_LIMIT_HEADER_NAMES = [
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
];
