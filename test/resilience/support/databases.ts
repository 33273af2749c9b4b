import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, type QueryResultRow } from 'pg';
import {
  startEmbeddedPostgres,
  type RunningEmbeddedPostgres,
} from '../../../apps/api/src/embedded-postgres/embedded-postgres';
import { freePort } from '../../support/free-port';

/** The run's migrated test database (created by test/setup/global-setup.ts). */
export function testDatabaseUrl(): string {
  const url = process.env.LAYOUT_TEST_DATABASE_URL;
  if (!url) throw new Error('LAYOUT_TEST_DATABASE_URL is not set: run through the e2e project');
  return url;
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** Runs one statement on its own connection. */
export async function query<R extends QueryResultRow = any>(
  url: string,
  sql: string,
  params: unknown[] = [],
): Promise<R[]> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return (await client.query<R>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** A new, empty (unmigrated) database on the server of the run's test database. */
export async function createFreshDatabase(
  prefix: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const server = withDatabase(testDatabaseUrl(), 'postgres');
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  await query(server, `CREATE DATABASE "${name}"`);
  return {
    url: withDatabase(server, name),
    drop: async () => {
      await query(server, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}

/**
 * A PostgreSQL of the test's own (embedded, in a temporary folder, on a free port) that the
 * test may stop and start again on the same folder and port.
 */
export interface OwnPostgres {
  readonly port: number;
  /** The `layout` database on it. */
  readonly url: string;
  running(): boolean;
  stop(): Promise<void>;
  start(): Promise<void>;
  /**
   * SIGSTOP to the server and every process of it: connections stay open and nothing answers,
   * as when a database host hangs (unlike a stop, which refuses connections).
   */
  freeze(): void;
  /** SIGCONT to what `freeze` stopped. */
  thaw(): void;
  /** Stops it if running and deletes its folder. */
  destroy(): Promise<void>;
}

export async function startOwnPostgres(): Promise<OwnPostgres> {
  const folder = await mkdtemp(join(tmpdir(), 'layout-resilience-'));
  const requested = join(folder, 'postgres');
  const port = await freePort();
  let server: RunningEmbeddedPostgres | undefined = await startEmbeddedPostgres({
    dataDir: requested,
    port,
  });
  // As root the cluster may live elsewhere (see resolveDataDir): remember where.
  const dataDir = server.dataDir;
  try {
    await server.createDatabase('layout');
  } catch (error) {
    await server.stop();
    throw error;
  }
  let frozen: number[] = [];
  return {
    port,
    url: withDatabase(server.url, 'layout'),
    freeze: () => {
      const postmaster = Number(
        readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0],
      );
      frozen = [postmaster, ...childrenOf(postmaster)];
      for (const pid of frozen) process.kill(pid, 'SIGSTOP');
    },
    thaw: () => {
      for (const pid of frozen) process.kill(pid, 'SIGCONT');
      frozen = [];
    },
    running: () => server !== undefined,
    stop: async () => {
      const running = server;
      server = undefined;
      await running?.stop();
    },
    start: async () => {
      if (server) return;
      server = await startEmbeddedPostgres({ dataDir: requested, port });
    },
    destroy: async () => {
      for (const pid of frozen) process.kill(pid, 'SIGCONT');
      const running = server;
      server = undefined;
      await running?.stop().catch(() => undefined);
      await rm(dataDir, { recursive: true, force: true });
      await rm(folder, { recursive: true, force: true });
    },
  };
}

/** The processes whose parent is `pid` (PostgreSQL's backends and workers), from /proc. */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        // The parent pid is the field after the parenthesised command name.
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}
