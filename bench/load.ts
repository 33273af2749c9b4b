import autocannon from 'autocannon';
import { RssSampler, type ServerProcess } from './processes';
import { type Scenario } from './scenarios';

export interface LoadSettings {
  duration: number;
  warmup: number;
  connections: number;
}

export interface Measurement {
  requests: number;
  seconds: number;
  rps: number;
  /** Milliseconds, exact (autocannon's own histogram rounds to whole milliseconds). */
  p50: number;
  p99: number;
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
  /** Non-2xx answers and errors during the warm-up (not measured, but just as wrong). */
  warmupFailures: number;
  statusCounts: Record<string, number>;
  /** Peak resident memory of the server during warm-up and measurement, MiB. */
  peakRssMiB: number;
  /** The first few non-2xx answers and errors, for the failure message. */
  failures: string[];
}

/** Warm-up, then the measured run, of one scenario against one server. */
export async function measure(
  server: ServerProcess,
  scenario: Scenario,
  settings: LoadSettings,
): Promise<Measurement> {
  const rss = new RssSampler(server.pid);
  try {
    const failures: string[] = [];
    let warmupFailures = 0;
    if (settings.warmup > 0) {
      const { result } = await fire(
        server.url,
        scenario,
        settings.connections,
        settings.warmup,
        failures,
      );
      warmupFailures = result.non2xx + result.errors + result.mismatches;
    }
    const { result, latencies } = await fire(
      server.url,
      scenario,
      settings.connections,
      settings.duration,
      failures,
    );
    const sorted = Float64Array.from(latencies).sort();
    const statusCounts = Object.fromEntries(
      Object.entries(result.statusCodeStats).map(([status, { count }]) => [status, count]),
    );
    return {
      requests: sorted.length,
      seconds: result.duration,
      rps: sorted.length / result.duration,
      p50: percentile(sorted, 0.5),
      p99: percentile(sorted, 0.99),
      non2xx: result.non2xx,
      errors: result.errors + result.mismatches,
      warmupFailures,
      statusCounts,
      peakRssMiB: rss.stop(),
      failures,
    };
  } finally {
    rss.stop();
  }
}

async function fire(
  url: string,
  scenario: Scenario,
  connections: number,
  duration: number,
  failures: string[],
): Promise<{ result: autocannon.Result; latencies: number[] }> {
  const note = (failure: string) => {
    if (failures.length < 5) failures.push(failure);
  };
  const requests = scenario.requests().map((request) => ({
    ...request,
    onResponse: (
      status: number,
      body: string,
      context: autocannon.Context,
      headers: Record<string, string | string[]>,
    ) => {
      if (status < 200 || status >= 300) note(`${status} ${body.slice(0, 400)}`);
      request.onResponse?.(status, body, context, headers);
    },
  }));
  const latencies: number[] = [];
  const instance = autocannon({ url, connections, duration, requests, timeout: 10 });
  instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => {
    latencies.push(ms);
  });
  instance.on('reqError', (error: Error) => note(`request error: ${error.message}`));
  const result = await instance;
  return { result, latencies };
}

/** Nearest-rank percentile of ascending values. */
function percentile(sorted: Float64Array, fraction: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
}

/** Non-2xx answers and errors make the numbers meaningless: the run stops, loudly. */
export function assertClean(target: string, scenario: Scenario, measurement: Measurement): void {
  const { non2xx, errors, warmupFailures, requests } = measurement;
  if (non2xx === 0 && errors === 0 && warmupFailures === 0 && requests > 0) return;
  throw new Error(
    [
      `${target}, ${scenario.label}: ${non2xx} non-2xx answers and ${errors} errors in ` +
        `${requests} requests (and ${warmupFailures} failures during the warm-up)`,
      `status counts: ${JSON.stringify(measurement.statusCounts)}`,
      ...measurement.failures.map((failure) => `  ${failure}`),
    ].join('\n'),
  );
}
