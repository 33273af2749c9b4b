import type autocannon from 'autocannon';
import { type CapturedStatement, type PgWireProxy } from './pg-proxy';
import { type Scenario } from './scenarios';

/** What one request of a scenario costs in SQL, measured one request at a time. */
export interface SqlProfile {
  roundTrips: number;
  statements: number;
  /** Milliseconds per request spent waiting for PostgreSQL (wire time included). */
  dbMs: number;
  /** Median end-to-end latency of a lone request, milliseconds. */
  latencyMs: number;
  /** The statements of one request (for single-kind scenarios). */
  sample: CapturedStatement[];
}

/**
 * Runs a scenario's requests one after the other against a server whose database connections
 * go through the counting proxy. Nothing else talks through the proxy meanwhile, so the
 * counters' growth divided by the requests is what one request costs.
 */
export async function profileSql(
  url: string,
  proxy: PgWireProxy,
  scenario: Scenario,
  requests: number,
): Promise<SqlProfile> {
  const list = scenario.requests();
  // Warm-up: JIT, pool connections (their start-up messages are not a request's cost).
  await drive(url, scenario.requests(), Math.max(10, list.length));
  proxy.reset();
  const count = Math.ceil(requests / list.length) * list.length; // whole passes of a sequence
  const latencies = await drive(url, list, count);
  const { roundTrips, statements, dbMs } = proxy.counters;
  let sample: CapturedStatement[] = [];
  if (list.length === 1) {
    proxy.reset();
    await drive(url, list, 1);
    sample = [...proxy.captured]; // a copy: the proxy keeps appending to its own list
  }
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

/** Walks a request list the way an autocannon connection does (context reset per pass). */
async function drive(url: string, list: autocannon.Request[], count: number): Promise<number[]> {
  const latencies: number[] = [];
  let context: autocannon.Context = {};
  for (let i = 0; i < count; i++) {
    if (i % list.length === 0) context = {};
    const entry = list[i % list.length];
    const request = entry.setupRequest?.({}, context) ?? entry;
    const started = performance.now();
    const response = await fetch(`${url}${request.path}`, {
      method: request.method ?? 'GET',
      headers: request.headers,
      body: request.body,
    });
    const body = await response.text();
    latencies.push(performance.now() - started);
    if (!response.ok) {
      throw new Error(
        `${request.method} ${request.path}: ${response.status} ${body.slice(0, 300)}`,
      );
    }
    entry.onResponse?.(response.status, body, context, Object.fromEntries(response.headers));
  }
  return latencies;
}
