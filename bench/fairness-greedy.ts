/**
 * The greedy account of the `fairness` scenario, in a process of its own (forked by
 * bench/fairness.ts): autocannon reads one large project in many parallel connections. Its
 * ~8 MiB answers would otherwise share an event loop with the driver that measures the other
 * account's latency. It tells the parent when it has started, then sends what it counted.
 */
import autocannon from 'autocannon';

export interface GreedyOrder {
  url: string;
  token: string;
  path: string;
  connections: number;
  /** Seconds. */
  duration: number;
}

export interface GreedyCounts {
  /** Answers by status code. */
  statuses: Record<string, number>;
  /** 503 answers by problem type ("?" when the body was not a problem document). */
  refusals: Record<string, number>;
  /** 503 answers without Retry-After. */
  refusalsWithoutRetryAfter: number;
  errors: number;
  timeouts: number;
  p50: number;
  p99: number;
  seconds: number;
}

export type GreedyMessage = { started: true } | { counts: GreedyCounts };

function typeOf(body: string): string {
  try {
    const type = (JSON.parse(body) as { type?: unknown }).type;
    return typeof type === 'string' ? type : '?';
  } catch {
    return '?';
  }
}

async function main(order: GreedyOrder): Promise<GreedyCounts> {
  const refusals: Record<string, number> = {};
  let refusalsWithoutRetryAfter = 0;
  const instance = autocannon({
    url: order.url,
    connections: order.connections,
    duration: order.duration,
    timeout: 10,
    headers: { authorization: `Bearer ${order.token}` },
    requests: [
      {
        method: 'GET',
        path: order.path,
        onResponse: (status, body, _context, headers) => {
          if (status !== 503) return;
          const type = typeOf(body);
          refusals[type] = (refusals[type] ?? 0) + 1;
          if (headers['retry-after'] === undefined) refusalsWithoutRetryAfter++;
        },
      },
    ],
  });
  process.send?.({ started: true } satisfies GreedyMessage);
  const result = await instance;
  const statuses: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats)) statuses[code] = count;
  return {
    statuses,
    refusals,
    refusalsWithoutRetryAfter,
    errors: result.errors,
    timeouts: result.timeouts,
    p50: result.latency.p50,
    p99: result.latency.p99,
    seconds: result.duration,
  };
}

process.once('message', (order: GreedyOrder) => {
  main(order).then(
    (counts) => process.send?.({ counts } satisfies GreedyMessage, () => process.exit(0)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
});
