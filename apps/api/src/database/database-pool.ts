import { Logger } from '@nestjs/common';
import { type Writable } from 'node:stream';
import { Pool, type PoolClient } from 'pg';
import { outsideAnyRequest } from '../common/logging/request-context';
import { type DatabaseConfig } from '../config/app-config';

/** Injection token of the process's one node-postgres pool (Prisma's adapter uses it too). */
export const DATABASE_POOL = Symbol('DATABASE_POOL');

const logger = new Logger('Database');

/** How the pool's connections plan statements (see createDatabasePool). */
export const PLAN_CACHE_MODE = 'force_generic_plan';

/**
 * Connections the pool keeps open however long they stay idle. An editor autosaves after a
 * pause, and a pause outlasts the idle timeout: without them, its write waited for a new
 * backend and then for a new plan of every statement it ran (bench/results/changes.md).
 */
export const WARM_CONNECTIONS = 2;

/** How long a connection beyond the warm ones stays open while idle (node-postgres's default). */
export const IDLE_CONNECTION_MS = 10_000;

export function createDatabasePool(
  url: string,
  config: DatabaseConfig,
  idleConnectionMs = IDLE_CONNECTION_MS,
): Pool {
  const pool = new Pool({
    connectionString: url,
    max: config.poolSize,
    min: Math.min(WARM_CONNECTIONS, config.poolSize),
    idleTimeoutMillis: idleConnectionMs,
    connectionTimeoutMillis: config.timeoutMs,
    // Bounded statements: a stuck database answers 503 instead of hanging a request.
    statement_timeout: config.timeoutMs,
    // A backstop past the deadlines that Database and PrismaService.bounded keep themselves.
    query_timeout: config.timeoutMs + 1000,
    application_name: 'layout-service',
    // One plan per statement and connection, built once. The tree's statements are written for
    // one plan whatever their values (by primary key, by the project's list indexes), while
    // PostgreSQL's own choice is made from estimates: on some tables it kept planning a move anew
    // at every call, and planning cost more than running. Prisma's unnamed statements are
    // planned generically too; they find accounts, tokens and projects by key or by owner.
    // No JIT: PostgreSQL compiles a plan whose estimated cost passes `jit_above_cost` again at
    // every execution, and for the statements that rewrite a whole level (a restore's) that took
    // seconds, where running them took milliseconds. No incremental sorts: on a guess of a few
    // rows one looked cheap for a node's latest version, and it reads the whole project first
    // (the version triggers' seek on the primary key, migration versions_closed_by_their_address).
    options: `-c plan_cache_mode=${PLAN_CACHE_MODE} -c jit=off -c enable_incremental_sort=off`,
    // Statements sent on a connection before the previous one answered go out at once (each
    // with its own Sync), so a write can send its lock and its statements in one burst: the
    // project stays locked for as long as PostgreSQL works on them, not for this process's
    // round trips in between.
    pipeline: true,
  });
  // Unheard, an 'error' from an idle connection that the server closed would crash the
  // process; the pool drops that connection and opens a new one when needed.
  pool.on('error', (error) =>
    outsideAnyRequest(() => logger.warn(`An idle database connection failed: ${error.message}`)),
  );
  return pool;
}

export function warnOfBrokenConnection(error: Error): void {
  logger.warn(`A database connection failed during a transaction: ${error.message}`);
}

/** The socket beneath a pooled connection (node-postgres keeps it on `connection.stream`). */
function socketOf(client: PoolClient): Writable | undefined {
  return (client as unknown as { connection?: { stream?: Writable } }).connection?.stream;
}

/**
 * Holds what is sent on `client` until the returned release is called, then sends it in one
 * write. node-postgres writes each query of a pipeline on its own, and on loopback each write
 * is a system call that also delivers the bytes to PostgreSQL and wakes it: held together, the
 * bursts of all the units of work started back to back (SAVEPOINT, the lock, their statements)
 * cost one write, and PostgreSQL reads them in one go.
 */
export function holdWrites(client: PoolClient): () => void {
  const socket = socketOf(client);
  if (!socket) return () => undefined;
  socket.cork();
  let held = true;
  return () => {
    if (held) socket.uncork();
    held = false;
  };
}

/**
 * Tears a connection down at once. `end()` would politely wait for a server that may be frozen;
 * closing the socket fails the statements still waiting on it right away (node-postgres's pool
 * does the same with a connection attempt that timed out).
 */
export function destroyConnection(client: PoolClient): void {
  socketOf(client)?.destroy();
}
