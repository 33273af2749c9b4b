import { Inject, Injectable } from '@nestjs/common';
import { type Pool, type PoolClient } from 'pg';
import { isDatabaseUnavailable } from './database-errors';
import { DATABASE_POOL, warnOfBrokenConnection } from './database-pool';
import { type SqlSession } from './sql-session';
import { bindParameters, type SqlStatement } from './sql-statement';

/**
 * Hand-written SQL on the pool: single statements, and `transaction`, the one unit of work of
 * the services that write with it. Prisma keeps the schema, the migrations and the accounts'
 * queries; the layout tree runs here (see the README's "Decisions worth knowing").
 */
@Injectable()
export class Database implements SqlSession {
  constructor(@Inject(DATABASE_POOL) private readonly pool: Pool) {}

  async rows<P extends object, R>(statement: SqlStatement<P, R>, params: P): Promise<R[]> {
    return run(this.pool, statement, params);
  }

  async row<P extends object, R>(statement: SqlStatement<P, R>, params: P): Promise<R | undefined> {
    return (await run(this.pool, statement, params))[0];
  }

  /**
   * Runs `work` in one transaction on one pooled connection: committed when it returns, rolled
   * back when it throws (a domain error included), and the error rethrown. A connection that
   * failed is dropped from the pool, not reused.
   */
  async transaction<T>(work: (tx: SqlSession) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    client.on('error', warnOfBrokenConnection);
    let broken: unknown;
    try {
      // The pool pipelines (database-pool.ts): BEGIN and the work's first statements go out
      // together, without waiting for each other's answers.
      const [, result] = await Promise.all([client.query('BEGIN'), work(sessionOn(client))]);
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
}

function sessionOn(client: PoolClient): SqlSession {
  return {
    rows: (statement, params) => run(client, statement, params),
    row: async (statement, params) => (await run(client, statement, params))[0],
  };
}

async function run<P extends object, R>(
  on: Pool | PoolClient,
  statement: SqlStatement<P, R>,
  params: P,
): Promise<R[]> {
  const result = await on.query({
    name: statement.name,
    text: statement.text,
    values: bindParameters(statement, params),
  });
  return result.rows as R[];
}
