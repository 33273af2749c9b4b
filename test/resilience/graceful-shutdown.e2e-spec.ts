import { Agent } from 'node:http';
import { openEventStream } from '../support/event-stream-client';
import { query, testDatabaseUrl } from './support/databases';
import { describeOutcome, JsonClient, type Outcome, send } from './support/http';
import { startService, stopAllServices } from './support/service-process';

// 16 keep-alive connections sending content creates back to back into 4 columns (so requests
// also queue on the column locks), SIGTERM once the burst is well under way.
const WORKERS = 16;
const COLUMNS = 4;
const SIGTERM_AFTER_CREATES = 120;
const BURST_LIMIT_MS = 20_000;
const EXIT_LIMIT_MS = 15_000;
// Far longer than the exit limit: a connection the shutdown did not end by itself (an event
// stream, which never ends on its own) would hold the exit past the limit.
const SHUTDOWN_GRACE_MS = 60_000;
const STREAMS = 3;

interface Sent {
  marker: string;
  outcome: Outcome;
}

describe('graceful shutdown: the built service under load, then SIGTERM', () => {
  afterAll(() => stopAllServices(), 30_000);

  it('answers every request it accepted, stores every 2xx, and exits 0', async () => {
    const service = await startService({
      DATABASE_URL: testDatabaseUrl(),
      MIGRATE_ON_START: 'true',
      SHUTDOWN_GRACE_MS: String(SHUTDOWN_GRACE_MS),
    });
    const setup = new JsonClient(service.port);
    const { token } = await setup.newAccount('shutdown');
    const columns: Awaited<ReturnType<JsonClient['newColumn']>>[] = [];
    for (let i = 0; i < COLUMNS; i++) columns.push(await setup.newColumn(token, 3));
    // Editors following the project live while it is written to and shut down.
    const streams = await Promise.all(
      Array.from({ length: STREAMS }, () =>
        openEventStream(
          `http://127.0.0.1:${service.port}/projects/${columns[0].projectId}/events`,
          {
            authorization: `Bearer ${token}`,
          },
        ),
      ),
    );
    expect(streams.map((stream) => stream.status)).toEqual(Array(STREAMS).fill(200));

    const runId = `${process.pid}-${Date.now()}`;
    const sent: Sent[] = [];
    let created = 0;
    let sigtermAt = Infinity;
    const deadline = Date.now() + BURST_LIMIT_MS;

    // A worker stops when its request is refused (or cut): the service is gone.
    const worker = async (index: number) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const { contentsPath } = columns[index % COLUMNS];
      try {
        for (let i = 0; Date.now() < deadline; i++) {
          const marker = `shutdown-${runId}-${index}-${i}`;
          const outcome = await send({
            port: service.port,
            method: 'POST',
            path: contentsPath,
            headers: { authorization: `Bearer ${token}` },
            body: { type: 'text', data: { html: marker } },
            agent,
            timeoutMs: 10_000,
          });
          sent.push({ marker, outcome });
          if (outcome.kind !== 'answered') break;
          if (outcome.status === 201 && ++created === SIGTERM_AFTER_CREATES) {
            sigtermAt = Date.now();
            service.signal('SIGTERM');
          }
        }
      } finally {
        agent.destroy();
      }
    };
    const burstStart = Date.now();
    await Promise.all(Array.from({ length: WORKERS }, (_, index) => worker(index)));
    const summary = `${sent.length} requests in ${Date.now() - burstStart} ms, SIGTERM at +${sigtermAt - burstStart} ms`;

    const exit = (await service.exitWithin(EXIT_LIMIT_MS)) ?? `running after ${EXIT_LIMIT_MS} ms`;
    // The streams ended cleanly, each having followed the writes until then.
    await Promise.all(streams.map((stream) => stream.ended));
    for (const stream of streams) {
      expect(stream.endedCleanly).toBe(true);
      expect(stream.events.filter((e) => e.event === 'change').length).toBeGreaterThan(0);
    }
    expect({ exit, log: service.output() }).toEqual({
      exit: { code: 0, signal: null },
      log: service.output(),
    });

    // Nothing was cut off: a complete response, or refused before it was sent.
    const cut = sent.filter(({ outcome }) => outcome.kind === 'cut');
    expect({ summary, cut: cut.map(({ outcome }) => describeOutcome(outcome, sigtermAt)) }).toEqual(
      { summary, cut: [] },
    );

    // Every answer is a 201, or the shutting-down problem of a closing server, which also closes
    // the connection
    // (in flight requests are not failed: the database stays until HTTP has stopped).
    const answered = sent.flatMap(({ marker, outcome }) =>
      outcome.kind === 'answered' ? [{ marker, outcome }] : [],
    );
    const unexpected = answered.filter(
      ({ outcome }) =>
        outcome.status !== 201 &&
        !(
          outcome.status === 503 &&
          outcome.headers.connection === 'close' &&
          outcome.headers['content-type']?.startsWith('application/problem+json') &&
          outcome.body?.type === '/problems/shutting-down'
        ),
    );
    expect({
      summary,
      unexpected: unexpected.map(({ outcome }) => describeOutcome(outcome, sigtermAt)),
    }).toEqual({ summary, unexpected: [] });

    // It really was a shutdown under load: requests in flight at SIGTERM were answered 201
    // after it, and then the service stopped taking requests.
    expect(sigtermAt).toBeLessThan(Infinity);
    const createdAfterSigterm = answered.filter(
      ({ outcome }) => outcome.status === 201 && outcome.endedAt > sigtermAt,
    );
    expect(createdAfterSigterm.length).toBeGreaterThan(0);
    expect(sent.filter(({ outcome }) => outcome.kind === 'not-sent').length).toBeGreaterThan(0);

    // Every 201 is stored (under the id it announced); nothing else of this burst is.
    const stored = await query<{ id: string; html: string }>(
      testDatabaseUrl(),
      `SELECT id::text, data->>'html' AS html FROM contents WHERE data->>'html' LIKE $1`,
      [`shutdown-${runId}-%`],
    );
    const storedIdByMarker = new Map(stored.map((row) => [row.html, row.id]));
    const acknowledged = answered.filter(({ outcome }) => outcome.status === 201);
    const missing = acknowledged.filter(
      ({ marker, outcome }) => storedIdByMarker.get(marker) !== outcome.body?._id,
    );
    expect(missing.map(({ marker }) => marker)).toEqual([]);
    const unacknowledged = new Set(stored.map((row) => row.html));
    for (const { marker } of acknowledged) unacknowledged.delete(marker);
    expect([...unacknowledged]).toEqual([]);
  }, 120_000);
});
