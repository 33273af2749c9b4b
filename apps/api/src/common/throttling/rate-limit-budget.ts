import { type RateLimitConfig } from '../../config/app-config';
import { clientAddressKey } from './client-address';

/** Public routes that are never limited (health probes); the docs are not Nest routes at all. */
const UNLIMITED_PUBLIC_ROUTES = ['/health'];

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
  readonly tracker: 'account' | 'address';
  /** The counter's key, the same on every instance. */
  readonly key: string;
  readonly limit: number;
}

/**
 * Which budget a request is counted against: its account's when it carries a valid bearer
 * token, its client address's on the public routes (sign-up and token), none on the health
 * routes. Every route of one account (or address) shares one budget.
 */
export function selectBudget(facts: RequestFacts, limits: RateLimitConfig): Budget | undefined {
  if (facts.accountId !== undefined) {
    return { tracker: 'account', key: `rl:account:${facts.accountId}`, limit: limits.accountMax };
  }
  // A protected route without an account has been refused by authentication already.
  if (!facts.isPublic || facts.route === undefined) return undefined;
  if (isUnlimitedRoute(facts.route)) return undefined;
  return {
    tracker: 'address',
    key: `rl:address:${clientAddressKey(facts.address)}`,
    limit: limits.anonymousMax,
  };
}
