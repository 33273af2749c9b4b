import { type ThrottlerStorage } from '@nestjs/throttler';
import { type CounterStore } from '../counters/counter-store';
import { secondsUntil } from './rate-limit-headers';

/** What the storage answers (the package does not export the type by name). */
type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * `@nestjs/throttler`'s storage over our fixed-window counters, so that every instance counts
 * in the same Redis window (and in memory while Redis is down). A request past the limit is
 * refused until its window closes: the block lasts as long as what is left of the window,
 * whatever `blockDuration` says.
 */
export class CounterThrottlerStorage implements ThrottlerStorage {
  constructor(private readonly counters: CounterStore) {}

  async increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    const { count, resetInMs } = await this.counters.increment(key, ttl);
    const timeToExpire = secondsUntil(resetInMs);
    const isBlocked = count > limit;
    return {
      totalHits: count,
      timeToExpire,
      isBlocked,
      timeToBlockExpire: isBlocked ? timeToExpire : 0,
    };
  }
}
