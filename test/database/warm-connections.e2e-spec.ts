import { type PoolClient } from 'pg';
import { loadConfig } from '../../apps/api/src/config/load-config';
import { createDatabasePool, WARM_CONNECTIONS } from '../../apps/api/src/database/database-pool';

/** Idle time after which the connections beyond the warm ones close, shortened for the test. */
const IDLE_MS = 100;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function backendOf(client: PoolClient): Promise<number> {
  return (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
}

/**
 * An editor's autosave comes after a pause: the pool keeps WARM_CONNECTIONS connections open
 * through any pause, with the statements they planned, and closes the others once idle.
 */
describe('the database pool’s warm connections', () => {
  const url = process.env.LAYOUT_TEST_DATABASE_URL ?? '';
  const config = loadConfig({
    DATABASE_URL: url,
    DATABASE_POOL_SIZE: '6',
    DATABASE_TIMEOUT_MS: '5000',
  });
  const pool = createDatabasePool(url, config.database, IDLE_MS);
  afterAll(() => pool.end());

  it('keeps the warm connections open through a pause and closes the rest', async () => {
    const busy = await Promise.all(Array.from({ length: 4 }, () => pool.connect()));
    const opened = await Promise.all(busy.map(backendOf));
    for (const client of busy) client.release();

    // The two beyond the warm ones close once idle for IDLE_MS (a busy machine fires it late).
    for (let tries = 0; pool.totalCount > WARM_CONNECTIONS; tries++) {
      if (tries === 500) throw new Error(`${pool.totalCount} connections stayed open`);
      await pause(IDLE_MS / 4);
    }
    // A pause many times as long closes none of the warm ones...
    await pause(IDLE_MS * 5);
    expect(pool.totalCount).toBe(WARM_CONNECTIONS);

    // ... which are the same backends as before, still open at the server.
    const after = await Promise.all(Array.from({ length: WARM_CONNECTIONS }, () => pool.connect()));
    const reused = await Promise.all(after.map(backendOf));
    for (const client of after) client.release();
    expect(new Set(reused).size).toBe(WARM_CONNECTIONS);
    expect(opened).toEqual(expect.arrayContaining(reused));
  });
});
