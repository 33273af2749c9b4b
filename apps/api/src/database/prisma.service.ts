import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { Pool, type PoolClient } from 'pg';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { type Prisma, PrismaClient } from '../generated/prisma/client';
import { DatabaseServer } from './database-server';
import { isDatabaseUnavailable } from './database-errors';
import { type SqlRunner } from './sql-runner';

const logger = new Logger('Database');

/**
 * The one Prisma client of the process, over the one node-postgres pool (driver adapter), which
 * it also lends to hand-written SQL: `rows` for single statements and `sqlTransaction` for the
 * hottest writes. Prisma's interactive transactions cost about a millisecond of CPU each (client
 * proxy, request pipeline; measured against plain pg, see the README's Performance section), more
 * than everything else in a small write.
 */
@Injectable()
export class PrismaService extends PrismaClient implements OnModuleDestroy, SqlRunner {
  private readonly pool: Pool;

  constructor(server: DatabaseServer, @Inject(APP_CONFIG) config: AppConfig) {
    const { poolSize, timeoutMs } = config.database;
    const pool = new Pool({
      connectionString: server.url,
      max: poolSize,
      connectionTimeoutMillis: timeoutMs,
      // Bounded statements: a stuck database answers 503 instead of hanging a request.
      statement_timeout: timeoutMs,
      query_timeout: timeoutMs + 1000,
      application_name: 'layout-service',
    });
    // Unheard, an 'error' from an idle connection that the server closed would crash the
    // process; the pool drops that connection and opens a new one when needed.
    pool.on('error', (error) =>
      logger.warn(`An idle database connection failed: ${error.message}`),
    );
    super({
      adapter: new PrismaPg(pool, {
        disposeExternalPool: true,
        onConnectionError: warnOfBrokenConnection,
      }),
      transactionOptions: { maxWait: timeoutMs, timeout: timeoutMs * 2 },
    });
    this.pool = pool;
  }

  async rows<T>(statement: Prisma.Sql): Promise<T[]> {
    return (await this.pool.query(statement.text, statement.values)).rows as T[];
  }

  /**
   * Runs `work` in one transaction on one pooled connection: committed when it returns, rolled
   * back when it throws (a domain error included). A connection that failed is not reused.
   */
  async sqlTransaction<T>(work: (sql: SqlRunner) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    client.on('error', warnOfBrokenConnection);
    let broken: unknown;
    try {
      await client.query('BEGIN');
      const result = await work({ rows: (statement) => rowsOn(client, statement) });
      await client.query('COMMIT');
      return result;
    } catch (error) {
      if (isDatabaseUnavailable(error)) broken = error;
      else
        await client.query('ROLLBACK').catch((rollbackError: unknown) => (broken = rollbackError));
      throw error;
    } finally {
      client.removeListener('error', warnOfBrokenConnection);
      client.release(broken instanceof Error ? broken : broken !== undefined);
    }
  }

  async onModuleDestroy() {
    await this.$disconnect();
  }
}

function warnOfBrokenConnection(error: Error) {
  logger.warn(`A database connection failed during a transaction: ${error.message}`);
}

async function rowsOn<T>(client: PoolClient, statement: Prisma.Sql): Promise<T[]> {
  return (await client.query(statement.text, statement.values)).rows as T[];
}
