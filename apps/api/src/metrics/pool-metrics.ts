import { Gauge, type Registry } from 'prom-client';
import { type Pool } from 'pg';

/** The pool's name in its metrics (OpenTelemetry's `db.client.connection.pool.name`). */
export const POOL_NAME = 'layout-service';

/**
 * The database pool as OpenTelemetry's database client metrics name it: connections in use and
 * idle, the most it opens, and the requests waiting for one. Read from the pool when scraped,
 * so that taking and giving back a connection costs nothing more.
 */
export function registerPoolMetrics(registry: Registry, pool: Pool, max: number): void {
  const pool_name = POOL_NAME;
  new Gauge({
    name: 'db_client_connection_count',
    help: 'Connections of the database pool, by state (used or idle)',
    labelNames: ['db_client_connection_pool_name', 'db_client_connection_state'],
    registers: [registry],
    collect() {
      const idle = pool.idleCount;
      this.set(
        { db_client_connection_pool_name: pool_name, db_client_connection_state: 'idle' },
        idle,
      );
      this.set(
        { db_client_connection_pool_name: pool_name, db_client_connection_state: 'used' },
        pool.totalCount - idle,
      );
    },
  });
  new Gauge({
    name: 'db_client_connection_pending_requests',
    help: 'Requests waiting for a connection of the database pool',
    labelNames: ['db_client_connection_pool_name'],
    registers: [registry],
    collect() {
      this.set({ db_client_connection_pool_name: pool_name }, pool.waitingCount);
    },
  });
  new Gauge({
    name: 'db_client_connection_max',
    help: 'Connections the database pool opens at most (DATABASE_POOL_SIZE)',
    labelNames: ['db_client_connection_pool_name'],
    registers: [registry],
  }).set({ db_client_connection_pool_name: pool_name }, max);
}
