import { type ExecutionContext } from '@nestjs/common';
import { type RateLimitConfig } from '../../config/app-config';
import { Public } from '../decorators/public.decorator';
import { rateLimitThrottlers } from './rate-limit-throttlers';

const limits: RateLimitConfig = {
  enabled: true,
  windowSeconds: 60,
  accountMax: 600,
  anonymousMax: 30,
  sharedMax: 120,
};

class Routes {
  @Public()
  signUp(): void {}

  listProjects(): void {}
}

function contextFor(
  handler: () => void,
  request: { url?: string; user?: { id: string }; ip?: string },
): ExecutionContext {
  const fastifyRequest = {
    routeOptions: { url: request.url },
    user: request.user,
    ip: request.ip ?? '203.0.113.7',
  };
  return {
    getHandler: () => handler,
    getClass: () => Routes,
    switchToHttp: () => ({ getRequest: () => fastifyRequest }),
  } as unknown as ExecutionContext;
}

/** The throttler that counts this request, with its tracker and key, or undefined for none. */
async function countedBy(context: ExecutionContext) {
  const counting = rateLimitThrottlers(limits).filter((throttler) => !throttler.skipIf?.(context));
  expect(counting.length).toBeLessThanOrEqual(1);
  const [throttler] = counting;
  if (!throttler?.getTracker || !throttler.generateKey) return undefined;
  const tracker = await throttler.getTracker({}, context);
  return {
    name: throttler.name,
    limit: throttler.limit,
    ttl: throttler.ttl,
    key: throttler.generateKey(context, tracker, throttler.name ?? ''),
  };
}

describe('rateLimitThrottlers', () => {
  it('counts a call with a token against its account, on every route alike', async () => {
    const account = { id: 'acc-1' };
    const expected = { name: 'account', limit: 600, ttl: 60_000, key: 'rl:account:acc-1' };
    expect(
      await countedBy(
        contextFor(Routes.prototype.listProjects, { url: '/projects', user: account }),
      ),
    ).toEqual(expected);
    expect(
      await countedBy(
        contextFor(Routes.prototype.listProjects, { url: '/projects/:projectId', user: account }),
      ),
    ).toEqual(expected);
  });

  it('counts a public call without a token against its client address', async () => {
    expect(
      await countedBy(
        contextFor(Routes.prototype.signUp, { url: '/accounts', ip: '::ffff:203.0.113.7' }),
      ),
    ).toEqual({ name: 'address', limit: 30, ttl: 60_000, key: 'rl:address:203.0.113.7' });
  });

  it('counts neither the health routes nor a protected route refused for want of a token', async () => {
    expect(await countedBy(contextFor(Routes.prototype.signUp, { url: '/health/ready' }))).toBe(
      undefined,
    );
    expect(await countedBy(contextFor(Routes.prototype.listProjects, { url: '/projects' }))).toBe(
      undefined,
    );
  });
});
