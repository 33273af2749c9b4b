import { type CapturedStatement, type PgWireProxy } from './pg-proxy';
import { type OneRequest } from './requests';

/** What one request of a scenario costs in SQL, measured one request at a time. */
export interface SqlProfile {
  roundTrips: number;
  statements: number;
  /** Milliseconds per request spent waiting for PostgreSQL (wire time included). */
  dbMs: number;
  /** Median end-to-end latency of a lone request, milliseconds. */
  latencyMs: number;
  /** The statements of one request (what the growth runs EXPLAIN). */
  sample: CapturedStatement[];
}

/**
 * Sends a scenario's requests one after the other to a server whose database connections go
 * through the counting proxy. Nothing else talks through the proxy meanwhile, so the counters'
 * growth divided by the requests is what one request costs.
 */
export async function profileSql(
  url: string,
  proxy: PgWireProxy,
  request: (n: number) => OneRequest,
  count: number,
): Promise<SqlProfile> {
  // Warm-up: JIT, pool connections (their start-up messages are not a request's cost).
  for (let n = 0; n < 10; n++) await send(url, request(n));
  proxy.reset();
  const latencies: number[] = [];
  for (let n = 0; n < count; n++) latencies.push(await send(url, request(n)));
  const { roundTrips, statements, dbMs } = proxy.counters;
  proxy.reset();
  await send(url, request(count));
  const sample = [...proxy.captured]; // a copy: the proxy keeps appending to its own list
  proxy.reset();
  latencies.sort((a, b) => a - b);
  return {
    roundTrips: roundTrips / count,
    statements: statements / count,
    dbMs: dbMs / count,
    latencyMs: latencies[Math.floor(latencies.length / 2)],
    sample,
  };
}

async function send(url: string, request: OneRequest): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${url}${request.path}`, {
    method: request.method,
    headers: request.headers,
    body: request.body,
  });
  const body = await response.text();
  const ms = performance.now() - started;
  if (response.status !== request.expected) {
    throw new Error(
      `${request.method} ${request.path}: ${response.status} (expected ${request.expected}) ${body.slice(0, 300)}`,
    );
  }
  return ms;
}
