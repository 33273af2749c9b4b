import { jest } from '@jest/globals';
import { TooManyLoginAttemptsError } from '../common/errors';
import { LoginAttemptLimiter } from './login-attempt-limiter';

const START = Date.parse('2025-03-01T12:00:00Z');
const MINUTE = 60 * 1000;

describe('LoginAttemptLimiter', () => {
  let now: number;
  let limiter: LoginAttemptLimiter;

  beforeEach(() => {
    now = START;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    limiter = new LoginAttemptLimiter();
  });

  afterEach(() => jest.restoreAllMocks());

  const fail = (key: string, times: number) => {
    for (let i = 0; i < times; i += 1) limiter.recordFailure(key);
  };

  function refusal(key: string): TooManyLoginAttemptsError {
    try {
      limiter.assertAllowed(key);
    } catch (error) {
      expect(error).toBeInstanceOf(TooManyLoginAttemptsError);
      return error as TooManyLoginAttemptsError;
    }
    throw new Error('expected the attempt to be refused');
  }

  it('allows 9 failures', () => {
    fail('alice', 9);
    expect(() => limiter.assertAllowed('alice')).not.toThrow();
  });

  it('refuses after 10 failures, with the seconds left in the 15-minute window', () => {
    fail('alice', 10);
    expect(refusal('alice').retryAfterSeconds).toBe(15 * 60);
    now += 5 * MINUTE;
    expect(refusal('alice').retryAfterSeconds).toBe(10 * 60);
    now += 10 * MINUTE - 300;
    expect(refusal('alice').retryAfterSeconds).toBe(1);
  });

  it('allows attempts again once the window has passed', () => {
    fail('alice', 10);
    now += 15 * MINUTE;
    expect(() => limiter.assertAllowed('alice')).not.toThrow();
    fail('alice', 9);
    expect(() => limiter.assertAllowed('alice')).not.toThrow();
  });

  it('a success resets the count', () => {
    fail('alice', 9);
    limiter.recordSuccess('alice');
    fail('alice', 9);
    expect(() => limiter.assertAllowed('alice')).not.toThrow();
    fail('alice', 1);
    expect(refusal('alice').retryAfterSeconds).toBeGreaterThan(0);
  });

  it('counts each username on its own', () => {
    fail('alice', 10);
    expect(() => limiter.assertAllowed('bob')).not.toThrow();
    expect(refusal('alice').retryAfterSeconds).toBeGreaterThan(0);
  });
});
