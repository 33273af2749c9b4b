import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { TooManyLoginAttemptsError } from './errors';
import { type CounterStore } from '../common/counters/counter-store';
import { MemoryCounterStore } from '../common/counters/memory-counter-store';
import { type LoginAttempt, LoginAttemptLimiter } from './login-attempt-limiter';

const START = Date.parse('2025-03-01T12:00:00Z');
const SECOND = 1000;

const ATTACKER = '203.0.113.66';
const OWNER = '198.51.100.9';
const at = (address: string, usernameKey = 'alice'): LoginAttempt => ({ usernameKey, address });

/** Writes are asynchronous: let them land. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

function sharedStore() {
  const backing = new MemoryCounterStore();
  const state = { up: true };
  const guard = <T>(operation: () => Promise<T>) =>
    state.up ? operation() : Promise.reject(new Error('Connection is closed.'));
  const store: CounterStore = {
    increment: (key, windowMs) => guard(() => backing.increment(key, windowMs)),
    peek: (key) => guard(() => backing.peek(key)),
    reset: (key) => guard(() => backing.reset(key)),
  };
  return { store, state };
}

describe('LoginAttemptLimiter with shared counters (two instances)', () => {
  let now: number;

  beforeEach(() => {
    now = START;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
  });

  afterEach(() => jest.restoreAllMocks());

  /** Failed sign-ins as a token request makes them: refresh, check, count, fail. */
  async function failOn(limiter: LoginAttemptLimiter, attempt: LoginAttempt, times: number) {
    for (let i = 0; i < times; i += 1) {
      await limiter.refresh(attempt);
      limiter.assertAllowed(attempt);
      limiter.recordAttempt(attempt);
      await settle();
      limiter.recordFailure(attempt);
      await settle();
    }
  }

  async function retryAfter(limiter: LoginAttemptLimiter, attempt: LoginAttempt) {
    await limiter.refresh(attempt);
    try {
      limiter.assertAllowed(attempt);
      return undefined;
    } catch (error) {
      expect(error).toBeInstanceOf(TooManyLoginAttemptsError);
      return (error as TooManyLoginAttemptsError).retryAfterSeconds;
    }
  }

  it('adds up the failures of every instance, and every instance makes the address wait', async () => {
    const { store } = sharedStore();
    const first = new LoginAttemptLimiter(store);
    const second = new LoginAttemptLimiter(store);
    await failOn(first, at(ATTACKER), 3);
    await failOn(second, at(ATTACKER), 2);
    expect(await retryAfter(first, at(ATTACKER))).toBeUndefined();
    // The sixth failure in all, the third on the second instance.
    await failOn(second, at(ATTACKER), 1);
    for (const limiter of [first, second]) {
      expect(await retryAfter(limiter, at(ATTACKER))).toBe(1);
      expect(await retryAfter(limiter, at(OWNER))).toBeUndefined();
    }
    now += SECOND;
    await failOn(first, at(ATTACKER), 1);
    expect(await retryAfter(second, at(ATTACKER))).toBe(2);
  });

  it("counts an address's failures over all usernames on every instance", async () => {
    const { store } = sharedStore();
    const first = new LoginAttemptLimiter(store);
    const second = new LoginAttemptLimiter(store);
    for (let i = 0; i < 21; i += 1) {
      await failOn(i % 2 === 0 ? first : second, at(ATTACKER, `user-${i}`), 1);
    }
    for (const limiter of [first, second]) {
      expect(await retryAfter(limiter, at(ATTACKER, 'someone-new'))).toBe(1);
    }
  });

  it("counts a username's failures from many addresses on every instance, and each makes it wait", async () => {
    const { store } = sharedStore();
    const first = new LoginAttemptLimiter(store);
    const second = new LoginAttemptLimiter(store);
    for (let i = 0; i < 11; i += 1) {
      await failOn(i % 2 === 0 ? first : second, at(`203.0.113.${i + 1}`), 1);
    }
    for (const limiter of [first, second]) {
      expect(await retryAfter(limiter, at('203.0.113.99'))).toBe(1);
      expect(await retryAfter(limiter, { ...at(OWNER), trusted: true })).toBeUndefined();
    }
  });

  it('a success on one instance clears the count for all', async () => {
    const { store } = sharedStore();
    const first = new LoginAttemptLimiter(store);
    const second = new LoginAttemptLimiter(store);
    await failOn(first, at(ATTACKER), 5);
    await second.refresh(at(ATTACKER));
    second.recordAttempt(at(ATTACKER));
    second.recordSuccess(at(ATTACKER));
    await settle();
    // From then on the account trusts that address (the service remembers it).
    const trusted: LoginAttempt = { ...at(ATTACKER), trusted: true };
    await failOn(first, trusted, 5);
    expect(await retryAfter(first, trusted)).toBeUndefined();
  });

  it('an answer that comes back after a success does not bring the count back', async () => {
    const { store } = sharedStore();
    const limiter = new LoginAttemptLimiter(store);
    await failOn(limiter, at(ATTACKER), 5);
    // The sixth attempt's count is on its way when the password turns out right.
    limiter.recordAttempt(at(ATTACKER));
    limiter.recordSuccess(at(ATTACKER));
    await settle();
    await settle();
    expect(await retryAfter(limiter, at(ATTACKER))).toBeUndefined();
  });

  it('while the shared store is down, each instance goes on with its own count', async () => {
    const { store, state } = sharedStore();
    const limiter = new LoginAttemptLimiter(store);
    await failOn(limiter, at(ATTACKER), 4);
    state.up = false;
    await failOn(limiter, at(ATTACKER), 2);
    expect(await retryAfter(limiter, at(ATTACKER))).toBe(1);
  });

  it('does not keep usernames in the shared store', async () => {
    const keys: string[] = [];
    const store: CounterStore = {
      increment: (key) => {
        keys.push(key);
        return Promise.resolve({ count: 1, resetInMs: 60 * 60 * SECOND });
      },
      peek: () => Promise.resolve(undefined),
      reset: () => Promise.resolve(),
    };
    const limiter = new LoginAttemptLimiter(store);
    limiter.recordAttempt(at(ATTACKER, 'alice@example.com'));
    limiter.recordFailure(at(ATTACKER, 'alice@example.com'));
    await settle();
    expect(keys).toEqual([
      expect.stringMatching(/^login-failures:pair:[0-9a-f]{64}$/),
      expect.stringMatching(/^login-failures:username:[0-9a-f]{64}$/),
      `login-failures:address:${ATTACKER}`,
    ]);
  });
});
