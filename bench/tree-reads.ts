import autocannon from 'autocannon';
import { type ServerProcess } from './processes';
import { sampleUsage } from './proc-stats';
import { type Targets } from './targets';
import { type LoadLine } from './yardstick';

export interface LoadSettings {
  duration: number;
  warmup: number;
  connections: number;
}

/** How one variant of the whole-project read differs from load.mjs's `tree`. */
export interface TreeReadVariant {
  scenario: string;
  /** The only status that counts as success: `non2xx` holds every other one. */
  success: number;
  /** Headers of the request for the i-th read project (besides the bearer token). */
  headers: (project: number) => Record<string, string>;
  /** What is read for the i-th read project; its whole tree when left out. */
  path?: (project: number) => string;
  /** Whether the request goes without the bearer token (a share link, an asset's bytes). */
  anonymous?: boolean;
}

/**
 * The whole-project read of `tree`, cycling through the read projects as load.mjs does, in a
 * variant of the service's own (conditional, compressed, render, shared, assets): a warm-up, then the measured run,
 * sampled like load.mjs (bench/proc-stats.ts).
 */
export async function measureTreeReads(
  server: ServerProcess,
  targets: Targets,
  settings: LoadSettings,
  dbpid: number | undefined,
  variant: TreeReadVariant,
): Promise<LoadLine> {
  if (settings.warmup > 0) await fire(server.url, targets, settings, settings.warmup, variant);
  const usage = sampleUsage(server.pid, dbpid);
  const started = process.hrtime.bigint();
  const result = await fire(server.url, targets, settings, settings.duration, variant);
  const seconds = result.duration || Number(process.hrtime.bigint() - started) / 1e9;
  const succeeded = result.statusCodeStats[String(variant.success)]?.count ?? 0;
  const answered = Object.values(result.statusCodeStats).reduce((sum, s) => sum + s.count, 0);
  return {
    scenario: variant.scenario,
    rps: Math.round(result.requests.total / seconds),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: answered - succeeded,
    errors: result.errors + result.timeouts,
    ...usage(seconds),
  };
}

async function fire(
  url: string,
  targets: Targets,
  settings: LoadSettings,
  duration: number,
  variant: TreeReadVariant,
): Promise<autocannon.Result> {
  let n = 0;
  return await autocannon({
    url,
    connections: settings.connections,
    duration,
    timeout: 10,
    headers: variant.anonymous ? {} : { authorization: `Bearer ${targets.token}` },
    requests: [
      {
        setupRequest: (request) => {
          const i = n++ % targets.projects.length;
          return {
            ...request,
            method: 'GET',
            path: variant.path?.(i) ?? `/projects/${targets.projects[i]}`,
            headers: { ...request.headers, ...variant.headers(i) },
          };
        },
      },
    ],
  });
}
