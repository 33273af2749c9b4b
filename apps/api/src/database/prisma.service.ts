import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { PrismaClient } from '../generated/prisma/client';
import { DatabaseServer } from './database-server';

const logger = new Logger('Database');

/** The one Prisma client of the process, over a node-postgres pool (driver adapter). */
@Injectable()
export class PrismaService extends PrismaClient implements OnModuleDestroy {
  constructor(server: DatabaseServer, @Inject(APP_CONFIG) config: AppConfig) {
    const { poolSize, timeoutMs } = config.database;
    super({
      adapter: new PrismaPg(
        {
          connectionString: server.url,
          max: poolSize,
          connectionTimeoutMillis: timeoutMs,
          // Bounded statements: a stuck database answers 503 instead of hanging a request.
          statement_timeout: timeoutMs,
          query_timeout: timeoutMs + 1000,
          application_name: 'layout-service',
        },
        {
          // The adapter listens for the pool's 'error' events (unheard, an idle connection
          // that the server closes would crash the process); the pool drops that connection
          // and opens a new one when needed. These only say so in the log.
          onPoolError: (error) =>
            logger.warn(`An idle database connection failed: ${error.message}`),
          onConnectionError: (error) =>
            logger.warn(`A database connection failed during a transaction: ${error.message}`),
        },
      ),
      transactionOptions: { maxWait: timeoutMs, timeout: timeoutMs * 2 },
    });
  }

  async onModuleDestroy() {
    await this.$disconnect();
  }
}
