import { type RateLimitConfig } from '../../config/app-config';
import { clientAddressKey } from './client-address';

/**
 * Public routes that are never limited: health probes, and the bytes of uploaded assets, which
 * a page loads many at a time as it would from a static file server. The docs are not Nest
 * routes at all.
 */
const UNLIMITED_PUBLIC_ROUTES = ['/health', '/assets'];

/** Public routes with a budget of their own per address: share links, opened by their readers. */
const SHARED_ROUTES = '/shared/';

/**
 * Whether calls of this route (a Fastify pattern or an OpenAPI path) are never counted, and so
 * never carry the RateLimit fields.
 */
export function isUnlimitedRoute(route: string): boolean {
  return UNLIMITED_PUBLIC_ROUTES.some(
    (prefix) => route === prefix || route.startsWith(`${prefix}/`),
  );
}

/** What the rate limiter knows of a request once authentication has run. */
export interface RequestFacts {
  /** The route's pattern (`/projects/:projectId`), `undefined` when no route matched. */
  readonly route: string | undefined;
  /** Whether the route is open without a token (`@Public()`). */
  readonly isPublic: boolean;
  /** The bearer token's account, when authentication succeeded. */
  readonly accountId: string | undefined;
  /** The client's address as the server sees it. */
  readonly address: string | undefined;
}

export interface Budget {
  readonly tracker: 'account' | 'address' | 'shared';
  /** The counter's key, the same on every instance. */
  readonly key: string;
  readonly limit: number;
}

/**
 * Which budget a request is counted against: its account's when it carries a valid bearer
 * token, its client address's on the public routes (sign-up and token; share links' opens
 * apart, with a budget of their own), none on the health and asset routes. Every route of one account (or address) shares one budget.
 */
export function selectBudget(facts: RequestFacts, limits: RateLimitConfig): Budget | undefined {
  if (facts.accountId !== undefined) {
    return { tracker: 'account', key: `rl:account:${facts.accountId}`, limit: limits.accountMax };
  }
  // A protected route without an account has been refused by authentication already.
  if (!facts.isPublic || facts.route === undefined) return undefined;
  if (isUnlimitedRoute(facts.route)) return undefined;
  if (facts.route.startsWith(SHARED_ROUTES)) {
    return {
      tracker: 'shared',
      key: `rl:shared:${clientAddressKey(facts.address)}`,
      limit: limits.sharedMax,
    };
  }
  return {
    tracker: 'address',
    key: `rl:address:${clientAddressKey(facts.address)}`,
    limit: limits.anonymousMax,
  };
}
