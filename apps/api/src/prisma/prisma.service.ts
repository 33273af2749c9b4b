import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { type Pool } from 'pg';
import { DatabaseUnavailableError } from '../common/errors';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { PrismaClient } from '../generated/prisma/client';
import { DATABASE_POOL, warnOfBrokenConnection } from '../database/database-pool';

/**
 * The one Prisma client of the process, over the shared node-postgres pool (driver adapter). It
 * serves the accounts and the health check; the layout tree runs its own SQL through Database.
 * Disconnecting it closes the pool, last.
 */
@Injectable()
export class PrismaService extends PrismaClient implements OnModuleDestroy {
  private readonly timeoutMs: number;

  constructor(@Inject(DATABASE_POOL) pool: Pool, @Inject(APP_CONFIG) config: AppConfig) {
    const { timeoutMs } = config.database;
    super({
      adapter: new PrismaPg(pool, {
        disposeExternalPool: true,
        onConnectionError: warnOfBrokenConnection,
      }),
      transactionOptions: { maxWait: timeoutMs, timeout: timeoutMs * 2 },
    });
    this.timeoutMs = timeoutMs;
  }

  /**
   * The query's result, or 503 once DATABASE_TIMEOUT_MS has passed: waiting for a connection
   * and running the statement each have that bound in the pool, together they must too (a
   * frozen database answers nothing). The query itself ends at the pool's own timeout.
   */
  async bounded<T>(query: PromiseLike<T>): Promise<T> {
    const running = Promise.resolve(query);
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new DatabaseUnavailableError()), this.timeoutMs);
    });
    try {
      return await Promise.race([running, expired]);
    } finally {
      clearTimeout(timer);
      // Answered late or never, its failure is nobody's to hear any more.
      running.catch(() => undefined);
    }
  }

  async onModuleDestroy() {
    await this.$disconnect();
  }
}
