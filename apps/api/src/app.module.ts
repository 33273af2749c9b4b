import { type DynamicModule, Module, type Provider } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AccountsModule } from './accounts/accounts.module';
import { AssetsModule } from './assets/assets.module';
import { CountersModule } from './common/counters/counters.module';
import { BearerAuthGuard } from './common/guards/bearer-auth.guard';
import { RedisModule } from './common/redis/redis.module';
import { RateLimitGuard } from './common/throttling/rate-limit.guard';
import { RateLimitModule } from './common/throttling/rate-limit.module';
import { type AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { PrismaModule } from './prisma/prisma.module';
import { HealthModule } from './health/health.module';
import { LayoutModule } from './layout/layout.module';
import { MembersModule } from './members/members.module';
import { RolePolicyGuard } from './members/policy/role-policy.guard';
import { MetricsModule } from './metrics/metrics.module';
import { type Tracing } from './tracing/tracing';
import { TracingModule } from './tracing/tracing.module';
import { PublishingModule } from './publishing/publishing.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, tracing?: Tracing): DynamicModule {
    // Global guards run in this order: the rate limit counts per account, so it comes after
    // authentication; the roles' policy after both, so that a refused request still counts.
    const guards: Provider[] = [{ provide: APP_GUARD, useClass: BearerAuthGuard }];
    if (config.rateLimit.enabled) guards.push({ provide: APP_GUARD, useClass: RateLimitGuard });
    guards.push({ provide: APP_GUARD, useExisting: RolePolicyGuard });
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        MetricsModule.forRoot(config),
        TracingModule.forRoot(tracing),
        DatabaseModule,
        PrismaModule,
        RedisModule,
        CountersModule,
        RateLimitModule,
        AccountsModule,
        MembersModule,
        AssetsModule,
        LayoutModule,
        PublishingModule,
        HealthModule,
      ],
      providers: guards,
    };
  }
}
