import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { DatabaseServer } from './database-server';
import { PrismaService } from './prisma.service';

@Global()
@Module({
  providers: [
    {
      provide: DatabaseServer,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => DatabaseServer.start(config.database),
    },
    PrismaService,
  ],
  exports: [PrismaService, DatabaseServer],
})
export class DatabaseModule {}
