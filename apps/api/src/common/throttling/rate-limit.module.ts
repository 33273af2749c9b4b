import { Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { type CounterStore } from '../counters/counter-store';
import { CountersModule, RATE_LIMIT_COUNTERS } from '../counters/counters.module';
import { CounterThrottlerStorage } from './counter-throttler-storage';
import { rateLimitThrottlers } from './rate-limit-throttlers';

/** `@nestjs/throttler` configured with our budgets and our shared counters. */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      imports: [CountersModule],
      inject: [APP_CONFIG, RATE_LIMIT_COUNTERS],
      useFactory: (config: AppConfig, counters: CounterStore) => ({
        throttlers: rateLimitThrottlers(config.rateLimit),
        storage: new CounterThrottlerStorage(counters),
      }),
    }),
  ],
  exports: [ThrottlerModule],
})
export class RateLimitModule {}
