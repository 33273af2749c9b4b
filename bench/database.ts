import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '../apps/api/src/embedded-postgres/embedded-postgres';
import { freePort } from '../test/support/free-port';
import { onCleanup, onExitKill } from './cleanup';
import { commandName, parentPid } from './proc-stats';

/**
 * Where the run's data lives: two fresh databases on one PostgreSQL, one for the service and one
 * for the yardstick (whose seed drops its tables), both dropped at the end. The server is
 * DATABASE_URL's, or an embedded PostgreSQL the bench starts itself in the run's temp folder
 * (not the service: the service's process tree must hold only the service, whose RSS and CPU
 * the load driver sums over it and its descendants).
 */
export interface BenchDatabases {
  serviceUrl: string;
  yardstickUrl: string;
  /** The server's superuser connection (the bench's own queries, VACUUM, CHECKPOINT). */
  adminUrl: string;
  description: string;
  version: string;
  /** The postmaster, for the database's CPU (its backends are its children); if on this host. */
  postmasterPid: number | undefined;
}

export async function prepareDatabases(
  serverUrl: string | undefined,
  tempDir: string,
  log: (message: string) => void,
): Promise<BenchDatabases> {
  let adminUrl = serverUrl;
  let where = `${serverUrl ? new URL(serverUrl).host : ''} (DATABASE_URL)`;
  if (adminUrl === undefined) {
    const port = await freePort();
    log(`starting an embedded PostgreSQL on port ${port}`);
    const embedded = await startEmbeddedPostgres({
      dataDir: join(tempDir, 'postgres'),
      port,
      onNotice: log,
    });
    // Its cluster may live outside tempDir (as root, under /var/tmp: see resolveDataDir).
    onCleanup(`remove ${embedded.dataDir}`, () =>
      rm(embedded.dataDir, { recursive: true, force: true }),
    );
    onCleanup('stop the embedded PostgreSQL', () => embedded.stop());
    adminUrl = embedded.url;
    where = `an embedded PostgreSQL started by the bench (port ${port})`;
  }
  const suffix = `${Date.now().toString(36)}_${randomBytes(2).toString('hex')}`;
  const names = { service: `layout_bench_${suffix}`, yardstick: `yardstick_${suffix}` };
  const { version, postmasterPid } = await withClient(adminUrl, async (client) => {
    for (const name of Object.values(names)) {
      await client.query(`CREATE DATABASE "${name}"`);
      onCleanup(`drop database ${name}`, async () => {
        await withClient(adminUrl, (admin) =>
          admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
        );
      });
    }
    const { rows } = await client.query<{ version: string; pid: number }>(
      'SELECT current_setting($1) AS version, pg_backend_pid() AS pid',
      ['server_version'],
    );
    const local = ['127.0.0.1', 'localhost', '[::1]', ''].includes(new URL(adminUrl).hostname);
    return {
      version: rows[0].version,
      postmasterPid: local ? postmasterOf(rows[0].pid) : undefined,
    };
  });
  if (serverUrl === undefined && postmasterPid !== undefined) {
    // If the bench dies without its cleanup, the embedded server must not outlive it.
    onExitKill(() => {
      try {
        process.kill(postmasterPid, 'SIGINT'); // fast shutdown
      } catch {
        // Already stopped.
      }
    });
  }
  const urlOf = (name: string) => {
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return url.toString();
  };
  return {
    serviceUrl: urlOf(names.service),
    yardstickUrl: urlOf(names.yardstick),
    adminUrl,
    description: `databases ${names.service} (service) and ${names.yardstick} (yardstick) on ${where}, dropped afterwards`,
    version: `PostgreSQL ${version}`,
    postmasterPid,
  };
}

/** A backend's parent is the postmaster, if the server runs on this machine. */
function postmasterOf(backendPid: number): number | undefined {
  const parent = parentPid(backendPid);
  if (parent === undefined || !/^postgres|^postmaster/.test(commandName(parent) ?? '')) {
    return undefined;
  }
  return parent;
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
