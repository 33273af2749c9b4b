import { MemoryCounterStore } from '../counters/memory-counter-store';
import { CounterThrottlerStorage } from './counter-throttler-storage';

describe('CounterThrottlerStorage', () => {
  it('counts in one fixed window and blocks past the limit until the window closes', async () => {
    const storage = new CounterThrottlerStorage(new MemoryCounterStore());
    const first = await storage.increment('rl:account:a', 60_000, 2);
    expect(first).toEqual({
      totalHits: 1,
      timeToExpire: 60,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
    expect((await storage.increment('rl:account:a', 60_000, 2)).isBlocked).toBe(false);
    const third = await storage.increment('rl:account:a', 60_000, 2);
    expect(third).toMatchObject({ totalHits: 3, isBlocked: true });
    expect(third.timeToBlockExpire).toBe(third.timeToExpire);
    expect(third.timeToExpire).toBeGreaterThanOrEqual(59);
  });

  it('keeps every key apart', async () => {
    const storage = new CounterThrottlerStorage(new MemoryCounterStore());
    await storage.increment('rl:account:a', 60_000, 1);
    expect((await storage.increment('rl:account:b', 60_000, 1)).totalHits).toBe(1);
  });
});
