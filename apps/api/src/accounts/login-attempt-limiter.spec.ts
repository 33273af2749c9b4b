import { jest } from '@jest/globals';
import { TooManyLoginAttemptsError } from './errors';
import { type LoginAttempt, LoginAttemptLimiter, waitAfterFailures } from './login-attempt-limiter';

const START = Date.parse('2025-03-01T12:00:00Z');
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

const ATTACKER = '203.0.113.66';
const OWNER = '198.51.100.9';
const at = (address: string, usernameKey = 'alice'): LoginAttempt => ({ usernameKey, address });

describe('waitAfterFailures', () => {
  it('is nothing for the free failures, then doubles from one second up to 15 minutes', () => {
    expect([1, 2, 3, 4, 5].map((n) => waitAfterFailures(n, 5))).toEqual([0, 0, 0, 0, 0]);
    expect([6, 7, 8, 9, 10, 11].map((n) => waitAfterFailures(n, 5))).toEqual([
      1 * SECOND,
      2 * SECOND,
      4 * SECOND,
      8 * SECOND,
      16 * SECOND,
      32 * SECOND,
    ]);
    expect(waitAfterFailures(15, 5)).toBe(512 * SECOND);
    expect(waitAfterFailures(16, 5)).toBe(15 * MINUTE);
    expect(waitAfterFailures(10_000, 5)).toBe(15 * MINUTE);
  });
});

describe('LoginAttemptLimiter', () => {
  let now: number;
  let limiter: LoginAttemptLimiter;

  beforeEach(() => {
    now = START;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    limiter = new LoginAttemptLimiter();
  });

  afterEach(() => jest.restoreAllMocks());

  /** Failed sign-ins as the service records them: counted before the check, then failed. */
  const fail = (attempt: LoginAttempt, times = 1) => {
    for (let i = 0; i < times; i += 1) {
      limiter.recordAttempt(attempt);
      limiter.recordFailure(attempt);
    }
  };

  function retryAfter(attempt: LoginAttempt): number | undefined {
    try {
      limiter.assertAllowed(attempt);
      return undefined;
    } catch (error) {
      expect(error).toBeInstanceOf(TooManyLoginAttemptsError);
      return (error as TooManyLoginAttemptsError).retryAfterSeconds;
    }
  }

  it('lets 5 failures of one username at one address pass without a wait', () => {
    fail(at(ATTACKER), 5);
    expect(retryAfter(at(ATTACKER))).toBeUndefined();
  });

  it('makes every further failure wait twice as long as the one before, up to 15 minutes', () => {
    fail(at(ATTACKER), 5);
    const waits: number[] = [];
    for (let i = 0; i < 12; i += 1) {
      fail(at(ATTACKER));
      const seconds = retryAfter(at(ATTACKER));
      if (seconds === undefined) throw new Error('expected a wait');
      waits.push(seconds);
      now += seconds * SECOND;
      expect(retryAfter(at(ATTACKER))).toBeUndefined();
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900]);
  });

  it('tells the seconds left of the wait', () => {
    fail(at(ATTACKER), 9); // the fourth past the free ones: 8 s
    expect(retryAfter(at(ATTACKER))).toBe(8);
    now += 5 * SECOND + 1;
    expect(retryAfter(at(ATTACKER))).toBe(3);
    now += 3 * SECOND - 1;
    expect(retryAfter(at(ATTACKER))).toBeUndefined();
  });

  it('never makes the owner wait at another address for failures on his username there', () => {
    fail(at(ATTACKER), 10);
    expect(retryAfter(at(ATTACKER))).toBe(16);
    expect(retryAfter(at(OWNER))).toBeUndefined();
    // Nor anyone else at the attacker's address, until it has failed too often for any name.
    expect(retryAfter(at(ATTACKER, 'bob'))).toBeUndefined();
  });

  describe('one username guessed from many addresses', () => {
    const addresses = Array.from({ length: 20 }, (_, i) => `203.0.113.${i + 1}`);

    /** Attempts as the service makes them: refused (429) or checked and failed. */
    function guess(attempt: LoginAttempt): 'checked' | TooManyLoginAttemptsError {
      try {
        limiter.assertAllowed(attempt);
      } catch (error) {
        return error as TooManyLoginAttemptsError;
      }
      fail(attempt);
      return 'checked';
    }

    it('checks only the free failures and one more, 6 guesses from each of 20 addresses', () => {
      const outcomes = [];
      for (let round = 0; round < 6; round += 1) {
        for (const address of addresses) outcomes.push(guess(at(address)));
      }
      expect(outcomes.filter((outcome) => outcome === 'checked')).toHaveLength(11);
      const refusals = outcomes.filter(
        (outcome): outcome is TooManyLoginAttemptsError => outcome !== 'checked',
      );
      expect(refusals).toHaveLength(109);
      expect(refusals.every((refusal) => refusal.counted === 'username')).toBe(true);
      expect(refusals[0].retryAfterSeconds).toBe(1);
      expect(refusals[0].message).toMatch(/for this username/);
    });

    it('doubles the wait with every failure past the free ones, from anywhere', () => {
      for (const address of addresses.slice(0, 10)) fail(at(address));
      expect(retryAfter(at(addresses[10]))).toBeUndefined();
      const waits: number[] = [];
      for (const address of addresses.slice(10, 16)) {
        fail(at(address));
        const seconds = retryAfter(at(addresses[19]));
        if (seconds === undefined) throw new Error('expected a wait');
        waits.push(seconds);
        now += seconds * SECOND;
      }
      expect(waits).toEqual([1, 2, 4, 8, 16, 32]);
    });

    it('lets a trusted attempt (the owner) in meanwhile, and counts its failures', () => {
      for (const address of addresses.slice(0, 11)) fail(at(address));
      expect(retryAfter(at(OWNER))).toBe(1);
      const owner: LoginAttempt = { ...at(OWNER), trusted: true };
      expect(retryAfter(owner)).toBeUndefined();
      // Its attempt is not counted before the check; its failure is.
      limiter.recordAttempt(owner);
      expect(limiter.usernameWaitMs(owner)).toBe(1 * SECOND);
      limiter.recordFailure(owner);
      expect(limiter.usernameWaitMs(owner)).toBe(2 * SECOND);
      // Still held back at its own address by its own failures there, like anyone.
      fail(owner, 5);
      expect(retryAfter(owner)).toBe(1);
    });

    it("is not cleared by a success (the owner's would hand the guesser free guesses again)", () => {
      for (const address of addresses.slice(0, 11)) fail(at(address));
      const owner: LoginAttempt = { ...at(OWNER), trusted: true };
      limiter.recordAttempt(owner);
      limiter.recordSuccess(owner);
      expect(retryAfter(at(addresses[19]))).toBe(1);
    });

    it('forgets the username’s failures after a day', () => {
      for (const address of addresses.slice(0, 10)) fail(at(address));
      now += 24 * HOUR;
      fail(at(addresses[10]));
      expect(retryAfter(at(addresses[11]))).toBeUndefined();
    });
  });

  it('counts an IPv6 client by its /64, an IPv4-mapped one as IPv4', () => {
    fail(at('2001:db8:1:2::1'), 6);
    expect(retryAfter(at('2001:db8:1:2:ffff::9'))).toBe(1);
    expect(retryAfter(at('2001:db8:1:3::1'))).toBeUndefined();
    fail(at('::ffff:203.0.113.7'), 6);
    expect(retryAfter(at('203.0.113.7'))).toBe(1);
  });

  it('makes one address spraying many usernames wait once it has failed 20 times in all', () => {
    for (let i = 0; i < 20; i += 1) fail(at(ATTACKER, `user-${i}`));
    expect(retryAfter(at(ATTACKER, 'someone-new'))).toBeUndefined();
    fail(at(ATTACKER, 'user-20'));
    expect(retryAfter(at(ATTACKER, 'someone-new'))).toBe(1);
    now += SECOND;
    fail(at(ATTACKER, 'user-21'));
    expect(retryAfter(at(ATTACKER, 'someone-new'))).toBe(2);
    // Other addresses go on.
    expect(retryAfter(at(OWNER, 'someone-new'))).toBeUndefined();
  });

  it("does not clear the address's count on a success, only the username's there", () => {
    for (let i = 0; i < 20; i += 1) fail(at(ATTACKER, `user-${i}`));
    limiter.recordAttempt(at(ATTACKER, 'own-account'));
    limiter.recordSuccess(at(ATTACKER, 'own-account'));
    fail(at(ATTACKER, 'user-20'));
    expect(retryAfter(at(ATTACKER, 'own-account'))).toBe(1);
  });

  it('a success clears the count of the username at that address', () => {
    fail(at(ATTACKER), 5);
    limiter.recordAttempt(at(ATTACKER));
    limiter.recordSuccess(at(ATTACKER));
    // From then on the account trusts that address (the service remembers it).
    const trusted: LoginAttempt = { ...at(ATTACKER), trusted: true };
    fail(trusted, 5);
    expect(retryAfter(trusted)).toBeUndefined();
    fail(trusted);
    expect(retryAfter(trusted)).toBe(1);
  });

  it("forgets an address's failures after an hour, a username's there after a day", () => {
    fail(at(ATTACKER, 'alice'), 5);
    for (let i = 0; i < 15; i += 1) fail(at(ATTACKER, `user-${i}`));
    now += HOUR;
    // Both start again from nothing at the address; alice's five there are still remembered.
    fail(at(ATTACKER, 'alice'));
    expect(retryAfter(at(ATTACKER, 'alice'))).toBe(1);
    for (let i = 0; i < 19; i += 1) fail(at(ATTACKER, `other-${i}`));
    expect(retryAfter(at(ATTACKER, 'someone-new'))).toBeUndefined();

    now += 23 * HOUR;
    fail(at(ATTACKER, 'alice'), 5);
    expect(retryAfter(at(ATTACKER, 'alice'))).toBeUndefined();
  });

  it('keeps a wait that outlasts the window of failures that imposed it', () => {
    fail(at(ATTACKER), 5);
    now += 24 * HOUR - 10 * SECOND;
    fail(at(ATTACKER), 6); // past the free ones: 32 s, beyond the window's end
    now += 20 * SECOND;
    expect(retryAfter(at(ATTACKER))).toBe(12);
    now += 12 * SECOND;
    // Then the count starts again.
    fail(at(ATTACKER), 5);
    expect(retryAfter(at(ATTACKER))).toBeUndefined();
  });
});
