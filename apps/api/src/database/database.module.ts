import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Database } from './database';
import { createDatabasePool, DATABASE_POOL } from './database-pool';
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
    {
      provide: DATABASE_POOL,
      inject: [DatabaseServer, APP_CONFIG],
      useFactory: (server: DatabaseServer, config: AppConfig) =>
        createDatabasePool(server.url, config.database),
    },
    PrismaService,
    Database,
  ],
  exports: [PrismaService, Database, DatabaseServer],
})
export class DatabaseModule {}
