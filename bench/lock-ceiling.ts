/**
 * How fast can creates commit when they all go to one project whose writes must commit one
 * after another (the contract's revisions), against creates spread over many locks (the
 * yardstick's one lock per column)? Measured with no service at all: bare node-postgres
 * clients, each create one simple-protocol round trip (BEGIN, the lock, the insert, the counter's
 * bump, COMMIT in one string), so that nothing but PostgreSQL holds the lock. The ratio of the
 * two rates is the ceiling of any design that numbers one project's writes in commit order.
 *
 *   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres npm run bench:lock-ceiling
 *   ... -- --connections 20 --duration 10 --locks 42
 *
 * It works in a scratch database of its own on DATABASE_URL's server, dropped at the end.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { Client, Pool } from 'pg';

const { values } = parseArgs({
  options: {
    connections: { type: 'string', default: '20' },
    duration: { type: 'string', default: '10' },
    locks: { type: 'string', default: '42' },
  },
});
const connections = Number(values.connections);
const durationMs = Number(values.duration) * 1000;
const lockCount = Number(values.locks);

const serverUrl = process.env.DATABASE_URL;
if (!serverUrl)
  throw new Error('Set DATABASE_URL to a PostgreSQL server that lets you create databases');

// The same ~320-character HTML as the yardstick's create.
const HTML = `<p>${'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(5)}</p>`;

/** Creates per second over `durationMs`, `connections` clients in parallel. */
async function measure(pool: Pool, lockOf: (n: number) => number): Promise<number> {
  let done = 0;
  let next = 0;
  const deadline = Date.now() + durationMs;
  const worker = async () => {
    const client = await pool.connect();
    try {
      while (Date.now() < deadline) {
        const lock = lockOf(next++);
        await client.query(
          `BEGIN;
           SELECT revision FROM locks WHERE id = ${lock} FOR UPDATE;
           INSERT INTO items (lock_id, body) VALUES (${lock}, '${HTML}');
           UPDATE locks SET revision = revision + 1 WHERE id = ${lock};
           COMMIT;`,
        );
        done += 1;
      }
    } finally {
      client.release();
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: connections }, worker));
  return done / ((Date.now() - started) / 1000);
}

async function main(): Promise<void> {
  const name = `lock_ceiling_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl as string);
  url.pathname = `/${name}`;
  const pool = new Pool({ connectionString: url.toString(), max: connections });
  try {
    await pool.query(`CREATE TABLE locks (id int PRIMARY KEY, revision bigint NOT NULL DEFAULT 1);
      INSERT INTO locks (id) SELECT generate_series(0, ${lockCount - 1});
      CREATE TABLE items (id bigserial PRIMARY KEY, lock_id int NOT NULL, body text NOT NULL)`);
    // Warm-up, then each mode, then each again, so that both meet the same machine.
    await measure(pool, () => 0);
    const one: number[] = [];
    const many: number[] = [];
    for (let round = 0; round < 2; round += 1) {
      one.push(await measure(pool, () => 0));
      many.push(await measure(pool, (n) => n % lockCount));
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const line = (label: string, xs: number[]) =>
      `${label}: ${xs.map((x) => Math.round(x)).join(', ')} creates/s`;
    console.log(`${connections} connections, ${durationMs / 1000} s per run, two runs each`);
    console.log(line('one lock (one project, revisions in commit order)', one));
    console.log(line(`${lockCount} locks (the yardstick's one lock per column)`, many));
    console.log(`ceiling: ${(mean(one) / mean(many)).toFixed(2)}× (one lock ÷ ${lockCount} locks)`);
  } finally {
    await pool.end();
    await admin.query(`DROP DATABASE ${name}`);
    await admin.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
