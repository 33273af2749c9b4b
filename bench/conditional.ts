import { type ServerProcess } from './processes';
import { type Targets } from './targets';
import { type LoadSettings, measureTreeReads } from './tree-reads';
import { type LoadLine } from './yardstick';

/** The conditional read, or why it could not run. */
export type ConditionalResult =
  { available: true; line: LoadLine } | { available: false; reason: string };

/**
 * `conditional`: the whole-project read of `tree`, repeated with If-None-Match on projects that
 * do not change, which a service with ETags answers 304 without a body. First one GET per read
 * project learns its ETag; then autocannon cycles through the projects as load.mjs's `tree`
 * does, each request with its project's tag. Only 304 counts as success: `non2xx` here holds
 * every other status (200 included).
 */
export async function measureConditional(
  server: ServerProcess,
  targets: Targets,
  settings: LoadSettings,
  dbpid: number | undefined,
): Promise<ConditionalResult> {
  const tags = await learnTags(server.url, targets);
  if (typeof tags === 'string') return { available: false, reason: tags };
  const line = await measureTreeReads(server, targets, settings, dbpid, {
    scenario: 'conditional',
    success: 304,
    headers: (project) => ({ 'if-none-match': tags[project] }),
  });
  return { available: true, line };
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
