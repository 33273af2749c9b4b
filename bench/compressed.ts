import autocannon from 'autocannon';
import { type LoadSettings } from './conditional';
import { type ServerProcess } from './processes';
import { sampleUsage } from './proc-stats';
import { type Targets } from './targets';
import { type LoadLine } from './yardstick';

/** What a browser sends: the service answers brotli (preferred) or gzip. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

/**
 * `compressed`: the whole-project read of `tree` as a browser sends it, with
 * `Accept-Encoding: gzip, deflate, br`, so that the service compresses every answer. Compared
 * with the yardstick's tree, which compresses nothing: the cost of compression is the
 * difference. autocannon cycles through the read projects as load.mjs's `tree` does; only 200
 * counts as success. Sampled like load.mjs (bench/proc-stats.ts).
 */
export async function measureCompressed(
  server: ServerProcess,
  targets: Targets,
  settings: LoadSettings,
  dbpid: number | undefined,
): Promise<LoadLine> {
  if (settings.warmup > 0) await fire(server.url, targets, settings, settings.warmup);
  const usage = sampleUsage(server.pid, dbpid);
  const started = process.hrtime.bigint();
  const result = await fire(server.url, targets, settings, settings.duration);
  const seconds = result.duration || Number(process.hrtime.bigint() - started) / 1e9;
  const ok = result.statusCodeStats['200']?.count ?? 0;
  const answered = Object.values(result.statusCodeStats).reduce((sum, s) => sum + s.count, 0);
  return {
    scenario: 'compressed',
    rps: Math.round(result.requests.total / seconds),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: answered - ok,
    errors: result.errors + result.timeouts,
    ...usage(seconds),
  };
}

async function fire(
  url: string,
  targets: Targets,
  settings: LoadSettings,
  duration: number,
): Promise<autocannon.Result> {
  let n = 0;
  return await autocannon({
    url,
    connections: settings.connections,
    duration,
    timeout: 10,
    headers: { authorization: `Bearer ${targets.token}`, 'accept-encoding': ACCEPT_ENCODING },
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          method: 'GET',
          path: `/projects/${targets.projects[n++ % targets.projects.length]}`,
        }),
      },
    ],
  });
}
