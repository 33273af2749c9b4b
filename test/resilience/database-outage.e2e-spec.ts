import { Agent } from 'node:http';
import { eventually } from '../support/eventually';
import { timesInService } from './support/access-log';
import { type OwnPostgres, startOwnPostgres } from './support/databases';
import { describeOutcome, expectNone, JsonClient, type Outcome, send } from './support/http';
import { type ServiceProcess, startService, stopAllServices } from './support/service-process';

const TIMEOUT_MS = 1000;
// The longest any request may take in the service while the database goes away or is away: a
// request held for two deadlines was not cut off by the first (a busy machine fires timers
// late, never a whole deadline late). Measured by the service's clock (its access log).
const LATENCY_LIMIT_MS = 2 * TIMEOUT_MS;
const WORKERS = 6;
// Requests each phase waits for (counted over all workers).
const HEALTHY_REQUESTS = 30;
const OUTAGE_REQUESTS = 60;
const RECOVERED_REQUESTS = 30;

type Phase = 'healthy' | 'stopping' | 'down' | 'restarting' | 'recovered';

/** A request, with the phase it started in and the phase it ended in. */
interface Entry {
  from: Phase;
  to: Phase;
  op: string;
  outcome: Outcome;
}

describe('database outage: the built service on a PostgreSQL that stops and comes back', () => {
  let postgres: OwnPostgres | undefined;
  let service: ServiceProcess | undefined;

  afterAll(async () => {
    await stopAllServices();
    await postgres?.destroy();
  }, 60_000);

  it('answers 503 database-unavailable promptly, stays up, and recovers by itself', async () => {
    postgres = await startOwnPostgres();
    service = await startService({
      DATABASE_URL: postgres.url,
      MIGRATE_ON_START: 'true',
      DATABASE_TIMEOUT_MS: String(TIMEOUT_MS),
      DATABASE_POOL_SIZE: '4',
    });
    const { port } = service;
    const setup = new JsonClient(port);
    const { token, username, password } = await setup.newAccount('outage');
    const column = await setup.newColumn(token, 6);
    // A second token, first used once the database is gone: the service caches verified
    // tokens briefly, and this one must be looked up (and answer 503, not 401).
    const { token: unusedToken } = await setup.expect(200, 'POST', '/accounts/auth/token', {
      username,
      password,
    });

    // Each worker cycles through a write (a transaction), a tree read and a token check, on a
    // keep-alive connection, until told to stop.
    const ops = [
      { op: 'create content', method: 'POST', path: column.contentsPath, body: { type: 'empty' } },
      { op: 'retrieve project', method: 'GET', path: `/projects/${column.projectId}` },
      { op: 'who am I', method: 'GET', path: '/accounts/auth/me', freshToken: true },
    ];
    const entries: Entry[] = [];
    let phase: Phase = 'healthy';
    let stopTraffic = false;
    const within = (wanted: Phase) => entries.filter((e) => e.from === wanted && e.to === wanted);
    // Resolves once `count` requests have started and ended within phase `wanted`.
    const waiters: { wanted: Phase; count: number; resolve: () => void }[] = [];
    const reached = (wanted: Phase, count: number) =>
      new Promise<void>((resolve) => waiters.push({ wanted, count, resolve }));
    const worker = async (index: number) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        for (let i = index; !stopTraffic; i++) {
          const { op, method, path, body, freshToken } = ops[i % ops.length];
          const from = phase;
          // Only once the database is really gone: a lookup that still reached it while it
          // was stopping would cache the token, and the cache would then answer 200.
          const bearer = freshToken && phase === 'down' ? unusedToken : token;
          const outcome = await send({
            port,
            method,
            path,
            body,
            headers: { authorization: `Bearer ${bearer}` },
            agent,
            timeoutMs: 30_000,
          });
          entries.push({ from, to: phase, op, outcome });
          for (const waiter of [...waiters]) {
            if (within(waiter.wanted).length >= waiter.count) {
              waiters.splice(waiters.indexOf(waiter), 1);
              waiter.resolve();
            }
          }
        }
      } finally {
        agent.destroy();
      }
    };
    const traffic = Promise.all(Array.from({ length: WORKERS }, (_, index) => worker(index)));
    let readyWhileDown: Outcome | undefined;
    let liveWhileDown: Outcome | undefined;
    try {
      await reached('healthy', HEALTHY_REQUESTS);

      phase = 'stopping';
      await postgres.stop();
      phase = 'down';
      await reached('down', OUTAGE_REQUESTS);
      readyWhileDown = await send({
        port,
        method: 'GET',
        path: '/health/ready',
        timeoutMs: 10_000,
      });
      liveWhileDown = await send({ port, method: 'GET', path: '/health/live', timeoutMs: 10_000 });

      phase = 'restarting';
      await postgres.start();
      // Ready again by itself: nothing announces it but the answer itself, so ask.
      await eventually(async () => {
        const ready = await send({ port, method: 'GET', path: '/health/ready', timeoutMs: 10_000 });
        return ready.kind === 'answered' && ready.status === 200;
      }, 'ready again once the database is back');
      phase = 'recovered';
      await reached('recovered', RECOVERED_REQUESTS);
    } finally {
      stopTraffic = true;
      for (const waiter of waiters) waiter.resolve();
      await traffic;
    }

    const problems = (which: (entry: Entry) => boolean, allowed: (outcome: Outcome) => boolean) =>
      entries
        .filter((entry) => which(entry) && !allowed(entry.outcome))
        .map(({ from, to, op, outcome }) => `${from}→${to} ${op}: ${describeOutcome(outcome)}`);
    const all = () => true;
    const onlyIn = (wanted: Phase) => (entry: Entry) =>
      entry.from === wanted && entry.to === wanted;

    // The process stayed up and answered every request, promptly: none waited past the
    // database timeout (by far).
    const log = `Service log:\n${service.output().slice(-20_000)}`;
    if (!service.running()) throw new Error(`The service exited during the outage.\n${log}`);
    expectNone(
      'Requests not answered',
      problems(all, (o) => o.kind === 'answered'),
      log,
    );
    const serviceTime = await timesInService(
      service,
      entries.map(({ outcome }) => outcome),
    );
    expectNone(
      `Requests slower than ${LATENCY_LIMIT_MS} ms in the service`,
      problems(all, (o) => (serviceTime(o) ?? Infinity) <= LATENCY_LIMIT_MS),
      log,
    );
    // While the database is away, every operation answers the documented 503.
    expectNone('Not 503 while down', problems(onlyIn('down'), isDatabaseUnavailable), log);
    // Before and after, the operation's own answer; in between, that or the 503.
    expectNone('Failed while healthy', problems(onlyIn('healthy'), isSuccess), log);
    expectNone('Failed after recovery', problems(onlyIn('recovered'), isSuccess), log);
    // A write whose COMMIT was under way when the server went away may or may not have been
    // applied: that, and only that, answers write-outcome-unknown.
    const isWrite = (entry: Entry) => entry.op === 'create content';
    expectNone(
      'Neither success nor 503 database-unavailable (nor write-outcome-unknown for a write)',
      [
        ...problems(
          (entry) => !isWrite(entry),
          (o) => isSuccess(o) || isDatabaseUnavailable(o),
        ),
        ...problems(
          isWrite,
          (o) => isSuccess(o) || isDatabaseUnavailable(o) || isOutcomeUnknown(o),
        ),
      ],
      log,
    );
    expect(within('recovered').length).toBeGreaterThanOrEqual(RECOVERED_REQUESTS);

    expect(readyWhileDown && isDatabaseUnavailable(readyWhileDown)).toBe(true);
    expect(liveWhileDown?.kind === 'answered' && liveWhileDown.status).toBe(200);

    // And it still stops cleanly.
    expect(await service.stop()).toEqual({ code: 0, signal: null });
  }, 120_000);
});

function isSuccess(outcome: Outcome): boolean {
  return outcome.kind === 'answered' && outcome.status >= 200 && outcome.status < 300;
}

function isOutcomeUnknown(outcome: Outcome): boolean {
  return (
    outcome.kind === 'answered' &&
    outcome.status === 503 &&
    outcome.body?.type === '/problems/write-outcome-unknown'
  );
}

function isDatabaseUnavailable(outcome: Outcome): boolean {
  return (
    outcome.kind === 'answered' &&
    outcome.status === 503 &&
    /^application\/problem\+json/.test(outcome.headers['content-type'] ?? '') &&
    outcome.body?.type === '/problems/database-unavailable' &&
    outcome.body?.status === 503
  );
}
