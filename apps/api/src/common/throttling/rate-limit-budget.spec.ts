import { type RateLimitConfig } from '../../config/app-config';
import { type RequestFacts, selectBudget } from './rate-limit-budget';

const limits: RateLimitConfig = {
  enabled: true,
  windowSeconds: 60,
  accountMax: 600,
  anonymousMax: 30,
  sharedMax: 120,
};

const facts = (overrides: Partial<RequestFacts>): RequestFacts => ({
  route: '/projects',
  isPublic: false,
  accountId: undefined,
  address: '203.0.113.7',
  ...overrides,
});

describe('selectBudget', () => {
  it('counts an authenticated call against its account, whatever the address', () => {
    const budget = selectBudget(facts({ accountId: 'acc-1' }), limits);
    expect(budget).toEqual({ tracker: 'account', key: 'rl:account:acc-1', limit: 600 });
    expect(selectBudget(facts({ accountId: 'acc-1', address: '198.51.100.1' }), limits)).toEqual(
      budget,
    );
  });

  it('gives every account its own budget', () => {
    expect(selectBudget(facts({ accountId: 'acc-1' }), limits)?.key).not.toBe(
      selectBudget(facts({ accountId: 'acc-2' }), limits)?.key,
    );
  });

  it.each([['/accounts'], ['/accounts/auth/token']])(
    'counts %s (public) against the client address',
    (route) => {
      expect(selectBudget(facts({ route, isPublic: true }), limits)).toEqual({
        tracker: 'address',
        key: 'rl:address:203.0.113.7',
        limit: 30,
      });
    },
  );

  it('shares one budget between IPv4 and its IPv4-mapped form', () => {
    const mapped = selectBudget(
      facts({ route: '/accounts', isPublic: true, address: '::ffff:203.0.113.7' }),
      limits,
    );
    expect(mapped?.key).toBe('rl:address:203.0.113.7');
  });

  it.each([['/health/live'], ['/health/ready'], ['/health']])('never limits %s', (route) => {
    expect(selectBudget(facts({ route, isPublic: true }), limits)).toBeUndefined();
  });

  it('does not count a protected route without an account (authentication refused it)', () => {
    expect(selectBudget(facts({ route: '/projects', isPublic: false }), limits)).toBeUndefined();
  });

  it('does not count a request that matched no route', () => {
    expect(selectBudget(facts({ route: undefined, isPublic: true }), limits)).toBeUndefined();
  });

  it('does not mistake a route that merely starts like /health for a health route', () => {
    expect(selectBudget(facts({ route: '/healthy', isPublic: true }), limits)?.tracker).toBe(
      'address',
    );
  });
});
