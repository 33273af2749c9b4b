import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { RedisConnection } from './redis-connection';

/** Makes the process's one RedisConnection injectable everywhere. */
@Global()
@Module({
  providers: [
    {
      provide: RedisConnection,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => RedisConnection.open(config.redis),
    },
  ],
  exports: [RedisConnection],
})
export class RedisModule {}
