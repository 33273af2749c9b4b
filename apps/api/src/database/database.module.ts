import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Database } from './database';
import { createDatabasePool, DATABASE_POOL } from './database-pool';
import { DatabaseServer } from '../database-server/database-server';
import { openNotificationConnection } from '../notifications/notification-connection';
import { DatabaseNotifications } from '../notifications/notifications';

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
    {
      provide: DatabaseNotifications,
      inject: [DatabaseServer, APP_CONFIG],
      useFactory: (server: DatabaseServer, config: AppConfig) =>
        new DatabaseNotifications(() => openNotificationConnection(server.url, config.database)),
    },
    Database,
  ],
  exports: [Database, DatabaseServer, DatabaseNotifications, DATABASE_POOL],
})
export class DatabaseModule {}
