import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { TooManyLoginAttemptsError } from '../common/errors';
import { type CounterStore } from '../common/counters/counter-store';
import { MemoryCounterStore } from '../common/counters/memory-counter-store';
import { LoginAttemptLimiter } from './login-attempt-limiter';

const START = Date.parse('2025-03-01T12:00:00Z');
const MINUTE = 60 * 1000;

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

  async function failOn(limiter: LoginAttemptLimiter, times: number) {
    for (let i = 0; i < times; i += 1) {
      await limiter.refresh('alice');
      limiter.assertAllowed('alice');
      limiter.recordFailure('alice');
      await settle();
    }
  }

  it('refuses on every instance once the failures of all add up to 10', async () => {
    const { store } = sharedStore();
    const first = new LoginAttemptLimiter(store);
    const second = new LoginAttemptLimiter(store);
    await failOn(first, 5);
    await failOn(second, 5);
    for (const limiter of [first, second]) {
      await limiter.refresh('alice');
      expect(() => limiter.assertAllowed('alice')).toThrow(TooManyLoginAttemptsError);
    }
  });

  it('tells the seconds left in the window opened by the first failure, wherever it was', async () => {
    const { store } = sharedStore();
    const first = new LoginAttemptLimiter(store);
    const second = new LoginAttemptLimiter(store);
    await failOn(first, 1);
    now += 5 * MINUTE;
    await failOn(second, 9);
    await second.refresh('alice');
    try {
      second.assertAllowed('alice');
      throw new Error('expected a refusal');
    } catch (error) {
      expect((error as TooManyLoginAttemptsError).retryAfterSeconds).toBe(10 * 60);
    }
  });

  it('a success on one instance clears the count for all', async () => {
    const { store } = sharedStore();
    const first = new LoginAttemptLimiter(store);
    const second = new LoginAttemptLimiter(store);
    await failOn(first, 9);
    second.recordSuccess('alice');
    await settle();
    await failOn(first, 9);
    await first.refresh('alice');
    expect(() => first.assertAllowed('alice')).not.toThrow();
  });

  it('while the shared store is down, each instance goes on with its own count', async () => {
    const { store, state } = sharedStore();
    const limiter = new LoginAttemptLimiter(store);
    await failOn(limiter, 4);
    state.up = false;
    await failOn(limiter, 6);
    await limiter.refresh('alice');
    expect(() => limiter.assertAllowed('alice')).toThrow(TooManyLoginAttemptsError);
  });

  it('does not keep usernames in the shared store', async () => {
    const keys: string[] = [];
    const store: CounterStore = {
      increment: (key) => {
        keys.push(key);
        return Promise.resolve({ count: 1, resetInMs: 15 * MINUTE });
      },
      peek: () => Promise.resolve(undefined),
      reset: () => Promise.resolve(),
    };
    new LoginAttemptLimiter(store).recordFailure('alice@example.com');
    await settle();
    expect(keys).toEqual([expect.stringMatching(/^login-failures:[0-9a-f]{64}$/)]);
  });
});
