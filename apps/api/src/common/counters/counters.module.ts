import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { RedisConnection } from '../redis/redis-connection';
import { type CounterStore } from './counter-store';
import { FallbackCounterStore } from './fallback-counter-store';
import { MemoryCounterStore } from './memory-counter-store';
import { RedisCounterStore } from './redis-counter-store';

/** `CounterStore | null`: the counters in Redis (operations may reject), or null without Redis. */
export const SHARED_COUNTERS = Symbol('SHARED_COUNTERS');
/** `CounterStore`: the request budgets; in Redis when configured, in memory while it is down. */
export const RATE_LIMIT_COUNTERS = Symbol('RATE_LIMIT_COUNTERS');

@Module({
  providers: [
    {
      provide: SHARED_COUNTERS,
      inject: [RedisConnection, APP_CONFIG],
      useFactory: (redis: RedisConnection, config: AppConfig): CounterStore | null =>
        redis.client ? new RedisCounterStore(redis.client, config.redis.keyPrefix) : null,
    },
    {
      provide: RATE_LIMIT_COUNTERS,
      inject: [SHARED_COUNTERS],
      useFactory: (shared: CounterStore | null): CounterStore =>
        shared
          ? new FallbackCounterStore(shared, new MemoryCounterStore())
          : new MemoryCounterStore(),
    },
  ],
  exports: [SHARED_COUNTERS, RATE_LIMIT_COUNTERS],
})
export class CountersModule {}
