import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { type AuthenticatedAccount } from '../auth/authenticated-account';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { type CounterStore } from '../counters/counter-store';
import { RATE_LIMIT_COUNTERS } from '../counters/counters.module';
import { IS_PUBLIC } from '../decorators/public.decorator';
import { selectBudget } from './rate-limit-budget';
import { RateLimitExceededError } from './rate-limit-exceeded.error';
import { rateLimitHeaders, secondsUntil } from './rate-limit-headers';

/**
 * Counts each request against its budget (see selectBudget) in a fixed window of
 * RATE_LIMIT_WINDOW_SECONDS: past the limit it answers 429; below it, it adds the RateLimit and
 * RateLimit-Policy headers, under the policy name `account` or `address`. Registered globally
 * after BearerAuthGuard, so that the account is known.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly windowMs: number;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(RATE_LIMIT_COUNTERS) private readonly counters: CounterStore,
    private readonly reflector: Reflector,
  ) {
    this.windowMs = config.rateLimit.windowSeconds * 1000;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest & { user?: AuthenticatedAccount }>();
    const budget = selectBudget(
      {
        route: request.routeOptions.url,
        isPublic:
          this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [
            context.getHandler(),
            context.getClass(),
          ]) ?? false,
        accountId: request.user?.id,
        address: request.ip,
      },
      this.config.rateLimit,
    );
    if (!budget) return true;

    const { count, resetInMs } = await this.counters.increment(budget.key, this.windowMs);
    const resetSeconds = secondsUntil(resetInMs);
    const policy = {
      name: budget.tracker,
      quota: budget.limit,
      windowSeconds: this.config.rateLimit.windowSeconds,
    };
    if (count > budget.limit) throw new RateLimitExceededError(policy, resetSeconds);
    void http
      .getResponse<FastifyReply>()
      .headers(rateLimitHeaders(policy, budget.limit - count, resetSeconds));
    return true;
  }
}
