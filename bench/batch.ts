import { interrupted } from './cleanup';
import { measureRequests } from './edits';
import { call, expectCall, idOf } from './http';
import { combineSlices, type Side, slicesOf } from './measure';
import { type ServerProcess } from './processes';
import { type LoadSettings } from './tree-reads';
import { type LoadLine } from './yardstick';

/** Content updates in one batch: the batch arm's request, and what a single update is set against. */
export const BATCH_OPERATIONS = 10;

/** One arm of the scenario: its slices combined, and its warm-up's failures. */
export type BatchArm = Side;

export interface BatchResult {
  /** Projects the load is spread over, one request in flight on each at most (both arms alike). */
  projects: number;
  /** Text contents in each project, which the batches update all at once and the singles in turn. */
  contents: number;
  /** `PUT …/contents/<id>`, one content per request. */
  single: BatchArm;
  /** `POST /projects/<p>/batch` of BATCH_OPERATIONS such `PUT`s; its rps counts batches. */
  batched: BatchArm;
}

/** The two texts each content alternates between, so that every update changes something. */
const TEXTS = [
  `<p>${'An editor rewrites this paragraph of the proposal. '.repeat(6)}</p>`,
  `<p>${'The paragraph of the proposal, rewritten by an editor. '.repeat(6)}</p>`,
] as const;

/** One project of the spread: its id and its contents' paths, with the text each now holds. */
interface EditedProject {
  id: string;
  contents: { path: string; text: 0 | 1 }[];
  /** The content its next single update takes. */
  cursor: number;
  busy: boolean;
}

/**
 * `connections` small projects (a block, a row, one column of size 12) of BATCH_OPERATIONS
 * ~300-character texts each, in the seed account, so that each connection has a project of its
 * own: a team of editors, each on their own proposal.
 */
async function prepareProjects(
  url: string,
  token: string,
  count: number,
): Promise<EditedProject[]> {
  const post = async (path: string, body: object) =>
    expectCall(201, url, 'POST', path, { token, body });
  const projects: EditedProject[] = [];
  for (let i = 0; i < count; i++) {
    const id = idOf(await post('/projects', { title: `Batches ${i + 1}` }));
    const block = `/projects/${id}/blocks/${idOf(await post(`/projects/${id}/blocks`, { description: 'Edited' }))}`;
    const row = `${block}/rows/${idOf(await post(`${block}/rows`, { description: '' }))}`;
    const created = await post(`${row}/columns`, {
      size: 12,
      contents: Array.from({ length: BATCH_OPERATIONS }, () => ({
        type: 'text',
        data: { html: TEXTS[0] },
      })),
    });
    const column = `${row}/columns/${idOf(created)}`;
    const ids = (created.body as { contents: { _id: string }[] }).contents.map((c) => c._id);
    projects.push({
      id,
      contents: ids.map((content) => ({ path: `${column}/contents/${content}`, text: 0 })),
      cursor: 0,
      busy: false,
    });
  }
  return projects;
}

/**
 * One arm's run on the projects: each request takes the next project with no request in flight
 * (autocannon resets a connection's context after every request, so a connection does not own a
 * project; with as many projects as connections one is always free), and its answer frees it.
 * `single` updates one content of it (the project's next, in turn), `batched` all
 * BATCH_OPERATIONS of them in one batch; each content is given the other of TEXTS than it holds,
 * and a 200 records that it now holds it. Only 200 counts as success.
 */
function runArm(
  server: ServerProcess,
  token: string,
  projects: EditedProject[],
  arm: 'single' | 'batched',
  settings: LoadSettings,
  dbpid: number | undefined,
): Promise<LoadLine> {
  let next = 0;
  const free = (): EditedProject => {
    for (let i = 0; i < projects.length; i++) {
      const project = projects[(next + i) % projects.length];
      if (!project.busy) {
        next = (next + i + 1) % projects.length;
        return project;
      }
    }
    // Only after a timeout (an answer that never came): take the next one anyway.
    return projects[next++ % projects.length];
  };
  const flip = (text: 0 | 1): 0 | 1 => (text === 0 ? 1 : 0);
  return measureRequests(server, settings, dbpid, `batch-${arm}`, 200, token, {
    next: (context) => {
      const project = free();
      project.busy = true;
      context.project = project;
      if (arm === 'single') {
        const content = project.contents[project.cursor];
        context.content = content;
        project.cursor = (project.cursor + 1) % project.contents.length;
        return {
          method: 'PUT',
          path: content.path,
          body: { type: 'text', data: { html: TEXTS[flip(content.text)] } },
        };
      }
      return {
        method: 'POST',
        path: `/projects/${project.id}/batch`,
        body: {
          operations: project.contents.map((content) => ({
            method: 'PUT',
            path: content.path,
            body: { type: 'text', data: { html: TEXTS[flip(content.text)] } },
          })),
        },
      };
    },
    answered: (status, context) => {
      const project = context.project as EditedProject;
      project.busy = false;
      if (status !== 200) return;
      const updated =
        arm === 'single'
          ? [context.content as EditedProject['contents'][number]]
          : project.contents;
      for (const content of updated) content.text = flip(content.text);
    },
  });
}

/**
 * `batch` (the service alone: the yardstick has no batches): BATCH_OPERATIONS content updates
 * sent as one `POST /projects/<p>/batch` against the same updates sent one by one
 * (`PUT …/contents/<id>`). Both arms run on the same `connections` projects, one request in
 * flight on each at most, so that no request waits for another's project lock and the two
 * arms meet the same spread; the measured time is cut into slices that the arms take in turn
 * (single first), each arm warmed up once before its first slice. The projects are deleted
 * afterwards.
 */
export async function measureBatch(
  server: ServerProcess,
  token: string,
  settings: LoadSettings,
  dbpid: number | undefined,
  log: (message: string) => void,
): Promise<BatchResult> {
  const { duration, warmup, connections } = settings;
  log(`  ${connections} projects of ${BATCH_OPERATIONS} texts, one per connection`);
  const projects = await prepareProjects(server.url, token, connections);
  const slices = slicesOf('batch', duration);
  const arms = ['single', 'batched'] as const;
  const lines: Record<(typeof arms)[number], LoadLine[]> = { single: [], batched: [] };
  const warmupFailures = { single: 0, batched: 0 };
  for (const [i, seconds] of slices.entries()) {
    for (const arm of arms) {
      const run = (duration: number) =>
        runArm(server, token, projects, arm, { duration, warmup: 0, connections }, dbpid);
      if (i === 0 && warmup > 0) {
        const line = await run(warmup);
        warmupFailures[arm] = line.non2xx + line.errors;
      }
      const line = await run(seconds);
      if (interrupted()) throw new Error('interrupted');
      log(
        `  ${arm}, slice ${i + 1}/${slices.length}: ${line.rps} req/s, p99 ${line.p99} ms` +
          (line.non2xx + line.errors > 0 ? `; ${line.non2xx} not 200, ${line.errors} errors` : ''),
      );
      lines[arm].push(line);
    }
  }
  for (const project of projects)
    await call(server.url, 'DELETE', `/projects/${project.id}`, { token });
  return {
    projects: projects.length,
    contents: BATCH_OPERATIONS,
    single: { ...combineSlices(lines.single), warmupFailures: warmupFailures.single },
    batched: { ...combineSlices(lines.batched), warmupFailures: warmupFailures.batched },
  };
}
