import { type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { type ThrottlerOptions } from '@nestjs/throttler';
import { type FastifyRequest } from 'fastify';
import { type RateLimitConfig } from '../../config/app-config';
import { type AuthenticatedAccount } from '../auth/authenticated-account';
import { IS_PUBLIC } from '../decorators/public.decorator';
import { type Budget, selectBudget } from './rate-limit-budget';

const reflector = new Reflector();

/**
 * Each request's budget, worked out once: both throttlers' skipIf and the counting one's
 * getTracker ask for it.
 */
const budgets = new WeakMap<object, Budget | undefined>();

/** The budget this request is counted against (selectBudget), read off the execution context. */
export function budgetOf(context: ExecutionContext, limits: RateLimitConfig): Budget | undefined {
  const request = context
    .switchToHttp()
    .getRequest<FastifyRequest & { user?: AuthenticatedAccount }>();
  if (budgets.has(request)) return budgets.get(request);
  const budget = selectBudget(
    {
      route: request.routeOptions.url,
      isPublic:
        reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC, [
          context.getHandler(),
          context.getClass(),
        ]) ?? false,
      accountId: request.user?.id,
      address: request.ip,
    },
    limits,
  );
  budgets.set(request, budget);
  return budget;
}

/**
 * The throttlers, one per budget: `account` for calls with a token, `address` for the public
 * routes, `shared` for the opens of share links. A request is counted by the one its budget names and skipped by the other; the
 * budget's key (the same on every instance) is the counter's key, shared by every route.
 */
export function rateLimitThrottlers(limits: RateLimitConfig): ThrottlerOptions[] {
  const max = {
    account: limits.accountMax,
    address: limits.anonymousMax,
    shared: limits.sharedMax,
  };
  return (['account', 'address', 'shared'] as const).map((tracker) => ({
    name: tracker,
    ttl: limits.windowSeconds * 1000,
    limit: max[tracker],
    skipIf: (context: ExecutionContext) => budgetOf(context, limits)?.tracker !== tracker,
    getTracker: (_request: Record<string, unknown>, context: ExecutionContext) =>
      // Never undefined here: skipIf has let only this tracker's requests through.
      budgetOf(context, limits)?.key ?? `rl:${tracker}:unknown`,
    generateKey: (_context: ExecutionContext, key: string) => key,
  }));
}
