import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { type Pool } from 'pg';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { PrismaClient } from '../generated/prisma/client';
import { DATABASE_POOL, warnOfBrokenConnection } from './database-pool';

/**
 * The one Prisma client of the process, over the shared node-postgres pool (driver adapter). It
 * serves the accounts and the health check; the layout tree runs its own SQL through Database.
 * Disconnecting it closes the pool, last.
 */
@Injectable()
export class PrismaService extends PrismaClient implements OnModuleDestroy {
  constructor(@Inject(DATABASE_POOL) pool: Pool, @Inject(APP_CONFIG) config: AppConfig) {
    const { timeoutMs } = config.database;
    super({
      adapter: new PrismaPg(pool, {
        disposeExternalPool: true,
        onConnectionError: warnOfBrokenConnection,
      }),
      transactionOptions: { maxWait: timeoutMs, timeout: timeoutMs * 2 },
    });
  }

  async onModuleDestroy() {
    await this.$disconnect();
  }
}
