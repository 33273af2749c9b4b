import { Agent } from 'node:http';
import { PROJECT_TREE_MAX_BYTES } from '@layout/contracts';
import { quoteOf } from '../support/big-contents';
import { testDatabaseUrl } from './support/databases';
import { type GreedyCounts, type GreedyReads, startGreedyReads } from './support/greedy-reads';
import { describeOutcome, expectNone, JsonClient, send } from './support/http';
import { startService, stopAllServices } from './support/service-process';

// A small pool: without a cap per account, the greedy account's reads would take all of it,
// and another account's read would queue behind them.
const POOL_SIZE = 2;
const TIMEOUT_MS = 5000;
const GREEDY_LOOPS = 20;
/** How long the greedy account reads alone, then beside the other account. */
const ALONE_MS = 3000;
const BESIDE_MS = 5000;
/** The other account reads at most once per this (an editor's reads, not a load). */
const PACE_MS = 10;
// Past its share, an account waits and is refused with Retry-After; a read of its that did get
// a connection may still take longer than this test's short timeout.
const DOCUMENTED_REFUSALS = [
  '/problems/too-many-concurrent-requests',
  '/problems/database-unavailable',
];

/** Reads `path` one after the other for `ms`, at most one per PACE_MS: what was not a 200. */
async function readPaced(port: number, token: string, path: string, ms: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const failures: string[] = [];
  let reads = 0;
  try {
    for (const until = Date.now() + ms; Date.now() < until; reads++) {
      const startedAt = performance.now();
      const outcome = await send({
        port,
        method: 'GET',
        path,
        headers: { authorization: `Bearer ${token}` },
        agent,
      });
      if (outcome.kind !== 'answered' || outcome.status !== 200) {
        failures.push(describeOutcome(outcome));
      }
      const rest = startedAt + PACE_MS - performance.now();
      if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
    }
  } finally {
    agent.destroy();
  }
  return { reads, failures };
}

/** The greedy account's answers that are neither its whole project nor a documented refusal. */
function undocumented(counts: GreedyCounts, projectBytes: number): string[] {
  return [
    ...counts.okLengths.filter((length) => length !== projectBytes).map((n) => `200 of ${n} B`),
    ...counts.others
      .filter(
        (other) =>
          !(
            other.status === 503 &&
            DOCUMENTED_REFUSALS.includes(other.type) &&
            /^[1-9]\d*$/.test(String(other.retryAfter))
          ),
      )
      .map((other) => `${other.status} ${other.type} Retry-After ${other.retryAfter}`),
    ...counts.errors,
  ];
}

const answered = (counts: GreedyCounts) =>
  Object.values(counts.statuses).reduce((sum, n) => sum + n, 0);

/**
 * CONTRACT.md, part two, "Isolation and time limits": no account can slow another down. Issue
 * 20: an account reading its own unchanged large project is served (the instance keeps what it
 * built), and another account is served meanwhile, every read of it. How fast, beside and
 * alone, is the bench's `fairness` scenario (p99 beside ≤ 2× alone): a latency compared on a
 * machine that runs the suite beside other work says more about that work than about the
 * service.
 */
describe('fairness between accounts', () => {
  const greedyRuns: GreedyReads[] = [];
  afterAll(async () => {
    for (const run of greedyRuns) run.stop();
    await stopAllServices();
  }, 30_000);

  it('serves an account reading its largest project in 20 parallel loops, and every read of another account beside it', async () => {
    // Set up with the usual settings, then measure on an instance with the small pool.
    const preparing = await startService({ DATABASE_URL: testDatabaseUrl() });
    const client = new JsonClient(preparing.port);
    const greedy = await client.newAccount('greedy');
    const other = await client.newAccount('other');
    const big = await client.newColumn(greedy.token, 4);
    const small = await client.newColumn(other.token, 4);
    const bigPath = `/projects/${big.projectId}`;
    const smallPath = `/projects/${small.projectId}`;
    // Nearly the largest project allowed (a content's envelope adds a few hundred bytes).
    const empty = await client.call('GET', bigPath, undefined, greedy.token);
    const fits = Math.floor((PROJECT_TREE_MAX_BYTES - Buffer.byteLength(empty.text)) / 251_000);
    for (let i = 0; i < fits; i++) {
      await client.expect(201, 'POST', big.contentsPath, quoteOf(250_000), greedy.token);
    }
    const full = await client.call('GET', bigPath, undefined, greedy.token);
    const projectBytes = Buffer.byteLength(full.text);
    expect(projectBytes).toBeGreaterThan(PROJECT_TREE_MAX_BYTES - 300_000);
    await preparing.stop();
    const service = await startService({
      DATABASE_URL: testDatabaseUrl(),
      DATABASE_POOL_SIZE: String(POOL_SIZE),
      DATABASE_TIMEOUT_MS: String(TIMEOUT_MS),
    });
    const { port } = service;
    const greedyReads = (durationMs: number) => {
      const run = startGreedyReads({
        port,
        token: greedy.token,
        path: bigPath,
        loops: GREEDY_LOOPS,
        durationMs,
      });
      greedyRuns.push(run);
      return run.counted;
    };

    // The greedy account alone, on its unchanged project: served. (Nobody else has used this
    // instance yet.)
    const alone = await greedyReads(ALONE_MS);
    expect(undocumented(alone, projectBytes)).toEqual([]);
    const served = (alone.statuses['200'] ?? 0) / answered(alone);
    expect({ statuses: alone.statuses, served: served >= 0.9 }).toEqual({
      statuses: alone.statuses,
      served: true,
    });

    // The other account, all along while the greedy account reads.
    const beside = greedyReads(BESIDE_MS);
    const otherReads = await readPaced(port, other.token, smallPath, BESIDE_MS);
    const besideCounts = await beside;
    expect(undocumented(besideCounts, projectBytes)).toEqual([]);
    expect(answered(besideCounts)).toBeGreaterThan(0);
    expect(otherReads.reads).toBeGreaterThan(0);
    expectNone(
      'The other account was not served',
      otherReads.failures,
      `Service log:\n${service.output().slice(-10_000)}`,
    );
  }, 300_000);
});
