import { randomBytes } from 'node:crypto';
import { type Pool } from 'pg';
import { loadConfig } from '../../../apps/api/src/config/load-config';
import { Database } from '../../../apps/api/src/database/database';
import { createDatabasePool } from '../../../apps/api/src/database/database-pool';
import { sqlStatement } from '../../../apps/api/src/database/sql-statement';

/**
 * A real Database on the run's PostgreSQL, with a short deadline, for the suites that probe the
 * transaction helper with a table of their own (`table`, named uniquely per suite).
 */
export interface ProbeDatabase {
  readonly table: string;
  readonly pool: Pool;
  readonly db: Database;
  /** A statement named after the suite's table, so that names never meet another suite's. */
  statement<P extends object, R = unknown>(
    name: string,
    sql: string,
  ): ReturnType<typeof sqlStatement<P, R>>;
  /** Drops the table, and whatever `extra` names, and closes the pool. */
  close(extra?: string): Promise<void>;
}

export function openProbeDatabase(prefix: string, timeoutMs: number, poolSize = 4): ProbeDatabase {
  const url = process.env.LAYOUT_TEST_DATABASE_URL ?? '';
  const table = `${prefix}_${randomBytes(4).toString('hex')}`;
  const config = loadConfig({
    DATABASE_URL: url,
    DATABASE_POOL_SIZE: String(poolSize),
    DATABASE_TIMEOUT_MS: String(timeoutMs),
  });
  const pool = createDatabasePool(url, config.database);
  return {
    table,
    pool,
    db: new Database(pool, config),
    statement: <P extends object, R = unknown>(name: string, sql: string) =>
      sqlStatement<P, R>(`${table}.${name}`, sql),
    close: async (extra) => {
      await pool.query(`DROP TABLE IF EXISTS ${table}${extra ? `; ${extra}` : ''}`);
      await pool.end();
    },
  };
}

/** Ends the statement's own connection: a connection that breaks in the middle of a transaction. */
export const DIE = sqlStatement('probe.die', 'SELECT pg_terminate_backend(pg_backend_pid())');

/**
 * The server's own statement timeout off for the transaction: what follows stands for a
 * database that stops answering, which only the service's deadline can cut short.
 */
export const NO_SERVER_TIMEOUT = sqlStatement(
  'probe.no-server-timeout',
  'SET LOCAL statement_timeout = 0',
);

/**
 * A deferred trigger on `table` that makes COMMIT itself take 1.5 s when a row `when` (a
 * condition on NEW) is written: the write is sent, its outcome comes late.
 */
export function slowCommitWhen(
  probe: ProbeDatabase,
  event: string,
  when: string,
): Promise<unknown> {
  const { table, pool } = probe;
  return pool.query(
    `CREATE FUNCTION ${table}_slow() RETURNS trigger LANGUAGE plpgsql AS
       $body$ BEGIN PERFORM pg_sleep(1.5); RETURN NULL; END $body$;
     CREATE CONSTRAINT TRIGGER ${table}_slow AFTER ${event} ON ${table}
       DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (${when})
       EXECUTE FUNCTION ${table}_slow()`,
  );
}
