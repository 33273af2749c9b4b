import { Injectable } from '@nestjs/common';
import { ThrottlerGuard, type ThrottlerRequest } from '@nestjs/throttler';
import { type FastifyReply } from 'fastify';
import { RateLimitExceededError } from './rate-limit-exceeded.error';
import { rateLimitHeaders } from './rate-limit-headers';

/**
 * `@nestjs/throttler`'s guard (see rateLimitThrottlers for what is counted against which budget),
 * answering in the IETF draft's terms instead of `X-RateLimit-*`: below the limit it adds the
 * `RateLimit` and `RateLimit-Policy` fields under the budget's name; past it, it throws
 * RateLimitExceededError (429 problem+json with Retry-After). Registered globally after
 * BearerAuthGuard, so that the account is known.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  protected override async handleRequest(request: ThrottlerRequest): Promise<boolean> {
    const { context, limit, ttl, throttler, blockDuration, getTracker, generateKey } = request;
    const name = throttler.name ?? 'default';
    const { req, res } = this.getRequestResponse(context);
    const key = generateKey(context, await getTracker(req, context), name);
    const { totalHits, timeToExpire, isBlocked } = await this.storageService.increment(
      key,
      ttl,
      limit,
      blockDuration,
      name,
    );
    const policy = { name, quota: limit, windowSeconds: ttl / 1000 };
    if (isBlocked) throw new RateLimitExceededError(policy, timeToExpire);
    void (res as FastifyReply).headers(rateLimitHeaders(policy, limit - totalHits, timeToExpire));
    return true;
  }
}
