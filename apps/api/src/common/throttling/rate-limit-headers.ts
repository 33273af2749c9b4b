/**
 * A quota policy as the IETF RateLimit header fields name it (draft-ietf-httpapi-ratelimit-
 * headers-10): `quota` requests per `windowSeconds`, under a name that ties the `RateLimit`
 * field to its `RateLimit-Policy`.
 */
export interface RateLimitPolicy {
  /** `account` (calls with a token) or `address` (sign-up and token, per client address). */
  readonly name: string;
  readonly quota: number;
  readonly windowSeconds: number;
}

/** A Structured Fields String (RFC 9651 §3.3.3): quoted, `\` and `"` escaped. */
function sfString(value: string): string {
  return `"${value.replace(/[\\"]/g, (character) => `\\${character}`)}"`;
}

/**
 * The IETF RateLimit header fields, Structured Field Lists of one item each:
 * `RateLimit-Policy: "account";q=1200;w=60` (the quota and its window, in seconds) and
 * `RateLimit: "account";r=1187;t=42` (what is left of it, and the seconds until it starts again).
 */
export function rateLimitHeaders(
  policy: RateLimitPolicy,
  remaining: number,
  resetSeconds: number,
): Record<string, string> {
  const name = sfString(policy.name);
  return {
    'ratelimit-policy': `${name};q=${policy.quota};w=${policy.windowSeconds}`,
    ratelimit: `${name};r=${Math.max(0, remaining)};t=${resetSeconds}`,
  };
}

/** Whole seconds until a window closes, at least 1 (what Retry-After and RateLimit's t carry). */
export function secondsUntil(resetInMs: number): number {
  return Math.max(1, Math.ceil(resetInMs / 1000));
}

/** The response headers CORS lets a browser app read. */
export const RATE_LIMIT_HEADER_NAMES = ['RateLimit', 'RateLimit-Policy'];
