import { type DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AccountsModule } from './accounts/accounts.module';
import { BearerAuthGuard } from './common/guards/bearer-auth.guard';
import { type AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { HealthModule } from './health/health.module';
import { LayoutModule } from './layout/layout.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule,
        AccountsModule,
        LayoutModule,
        HealthModule,
      ],
      providers: [{ provide: APP_GUARD, useClass: BearerAuthGuard }],
    };
  }
}
