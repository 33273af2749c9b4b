import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { onCleanup } from './cleanup';
import { freePort } from '../test/support/free-port';

/**
 * Where the run's data lives. With DATABASE_URL: a fresh database on that server, dropped at
 * the end, so a developer's data is never touched and 1 000 000 filler rows never stay behind.
 * Without: the service's own embedded PostgreSQL, in the run's temp folder on a free port.
 */
export interface BenchDatabase {
  /** What the service is given (besides PORT and the like). */
  readonly serviceEnv: Record<string, string>;
  /** A direct connection string (valid once the service has started an embedded server). */
  readonly url: string;
  readonly description: string;
}

export async function prepareDatabase(
  serverUrl: string | undefined,
  tempDir: string,
): Promise<BenchDatabase> {
  if (serverUrl === undefined) {
    const port = await freePort();
    return {
      serviceEnv: { EMBEDDED_PG_DATA_DIR: `${tempDir}/postgres`, EMBEDDED_PG_PORT: String(port) },
      // The embedded server's fixed loopback-only credentials (apps/api/src/database/embedded-postgres.ts).
      url: `postgresql://postgres:postgres@127.0.0.1:${port}/postgres`,
      description: `embedded PostgreSQL (started by the service, port ${port})`,
    };
  }
  const name = `layout_bench_${Date.now().toString(36)}_${randomBytes(2).toString('hex')}`;
  await withClient(serverUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  onCleanup(`drop database ${name}`, async () => {
    await withClient(serverUrl, (client) =>
      client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
    );
  });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    serviceEnv: { DATABASE_URL: url.toString() },
    url: url.toString(),
    description: `database ${name} on ${url.host} (DATABASE_URL), dropped afterwards`,
  };
}

export async function withClient<T>(url: string, use: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url, application_name: 'layout-bench' });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}
