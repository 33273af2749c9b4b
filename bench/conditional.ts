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

/** The conditional read, or why it could not run. */
export type ConditionalResult =
  { available: true; line: LoadLine } | { available: false; reason: string };

/**
 * `conditional`: the whole-project read of `tree`, repeated with If-None-Match on projects that
 * do not change, which a service with ETags answers 304 without a body. First one GET per read
 * project learns its ETag; then autocannon cycles through the projects as load.mjs's `tree`
 * does, each request with its project's tag. Only 304 counts as success: `non2xx` here holds
 * every other status (200 included). Sampled like load.mjs (bench/proc-stats.ts).
 */
export async function measureConditional(
  server: ServerProcess,
  targets: Targets,
  settings: LoadSettings,
  dbpid: number | undefined,
): Promise<ConditionalResult> {
  const tags = await learnTags(server.url, targets);
  if (typeof tags === 'string') return { available: false, reason: tags };
  if (settings.warmup > 0) await fire(server.url, targets, tags, settings, settings.warmup);
  const usage = sampleUsage(server.pid, dbpid);
  const started = process.hrtime.bigint();
  const result = await fire(server.url, targets, tags, settings, settings.duration);
  const seconds = result.duration || Number(process.hrtime.bigint() - started) / 1e9;
  const notModified = result.statusCodeStats['304']?.count ?? 0;
  const answered = Object.values(result.statusCodeStats).reduce((sum, s) => sum + s.count, 0);
  return {
    available: true,
    line: {
      scenario: 'conditional',
      rps: Math.round(result.requests.total / seconds),
      p50: result.latency.p50,
      p99: result.latency.p99,
      non2xx: answered - notModified,
      errors: result.errors + result.timeouts,
      ...usage(seconds),
    },
  };
}

/** Each read project's ETag, or why there is none (a failing GET is an error). */
export async function learnTags(url: string, targets: Targets): Promise<string[] | string> {
  const tags: string[] = [];
  for (const project of targets.projects) {
    const response = await fetch(`${url}/projects/${project}`, {
      headers: { authorization: `Bearer ${targets.token}` },
    });
    await response.arrayBuffer();
    if (response.status !== 200) {
      throw new Error(`GET /projects/${project} answered ${response.status}, expected 200`);
    }
    const tag = response.headers.get('etag');
    if (!tag) return 'not available (no ETag)';
    tags.push(tag);
  }
  return tags;
}

async function fire(
  url: string,
  targets: Targets,
  tags: string[],
  settings: LoadSettings,
  duration: number,
): Promise<autocannon.Result> {
  let n = 0;
  return await autocannon({
    url,
    connections: settings.connections,
    duration,
    timeout: 10,
    headers: { authorization: `Bearer ${targets.token}` },
    requests: [
      {
        setupRequest: (request) => {
          const i = n++ % targets.projects.length;
          return {
            ...request,
            method: 'GET',
            path: `/projects/${targets.projects[i]}`,
            headers: { ...request.headers, 'if-none-match': tags[i] },
          };
        },
      },
    ],
  });
}
