import { jest } from '@jest/globals';
import { ConnectionShares } from './connection-shares';

describe('ConnectionShares', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('lets a holder take up to its share at once, and others theirs meanwhile', async () => {
    const shares = new ConnectionShares(2);
    const first = await shares.acquire('a', 100);
    const second = await shares.acquire('a', 100);
    expect(first).toBeDefined();
    expect(second).toBeDefined();
    expect(shares.inUse('a')).toBe(2);
    // Another account is not held up by the first one's full share.
    await expect(shares.acquire('b', 100)).resolves.toBeDefined();
    expect(shares.inUse('b')).toBe(1);
  });

  it('makes a holder past its share wait for one of its own places, first come first served', async () => {
    const shares = new ConnectionShares(1);
    const leave = await shares.acquire('a', 100);
    const order: string[] = [];
    const second = shares.acquire('a', 100).then((leaveSecond) => {
      order.push('second');
      return leaveSecond;
    });
    const third = shares.acquire('a', 100).then((leaveThird) => {
      order.push('third');
      return leaveThird;
    });
    await jest.advanceTimersByTimeAsync(10);
    expect(order).toEqual([]);
    leave?.();
    (await second)?.();
    await third;
    expect(order).toEqual(['second', 'third']);
    expect(shares.inUse('a')).toBe(1);
  });

  it('gives up after the wait, without taking a place', async () => {
    const shares = new ConnectionShares(1);
    const leave = await shares.acquire('a', 100);
    const late = shares.acquire('a', 100);
    await jest.advanceTimersByTimeAsync(100);
    await expect(late).resolves.toBeUndefined();
    leave?.();
    expect(shares.inUse('a')).toBe(0);
  });

  it('takes a waiter whose client went away out of the line at once: the place goes to the next', async () => {
    const shares = new ConnectionShares(1);
    const leave = await shares.acquire('a', 1000);
    const gone = new AbortController();
    const abandoned = shares.acquire('a', 1000, gone.signal);
    const next = shares.acquire('a', 1000);
    gone.abort();
    await expect(abandoned).resolves.toBeUndefined();
    leave?.();
    const leaveNext = await next;
    expect(leaveNext).toBeDefined();
    expect(shares.inUse('a')).toBe(1);
    leaveNext?.();
    expect(shares.inUse('a')).toBe(0);
  });

  it('does not queue a waiter whose client is already gone', async () => {
    const shares = new ConnectionShares(1);
    await shares.acquire('a', 1000);
    const gone = new AbortController();
    gone.abort();
    await expect(shares.acquire('a', 1000, gone.signal)).resolves.toBeUndefined();
  });

  it('counts a place given back twice only once', async () => {
    const shares = new ConnectionShares(2);
    const leave = await shares.acquire('a', 100);
    await shares.acquire('a', 100);
    leave?.();
    leave?.();
    expect(shares.inUse('a')).toBe(1);
  });
});
