import autocannon from 'autocannon';
import { expectCall, idOf } from './http';
import { type ServerProcess } from './processes';
import { sampleUsage } from './proc-stats';
import { type LoadSettings } from './tree-reads';
import { createWriteProject } from './write-project';
import { type LoadLine } from './yardstick';

// The service's own write scenarios, which load.mjs does not have: moves of contents between
// two columns, and copies of a block. Each slice runs on targets made for it beforehand
// (prepareMoves, prepareMovesMany, prepareCopies), as the service's other write slices do.

/** Contents ping-ponged between two columns each: one per connection. */
export interface MoveTargets {
  token: string;
  /** Each content's id, its two columns' paths, and the column (0 or 1) it starts in. */
  contents: { id: string; columns: [string, string]; column: 0 | 1 }[];
}

/** Blocks of the seed's shape to copy, taken in turn. */
export interface CopyTargets {
  token: string;
  /** Paths of the blocks to copy, in several projects (a project holds 500 blocks, 8 MiB). */
  blocks: string[];
}

/**
 * A fresh write project (seed.mjs's shape) and, in its first block, two columns of `connections`
 * contents each side between them: every connection moves its own content from one column to
 * the other and back, so that at any moment about half the moves go each way. All the moves
 * are of one project: they take its lock one after another.
 */
export async function prepareMoves(
  url: string,
  token: string,
  connections: number,
): Promise<MoveTargets> {
  const write = await createWriteProject(url, token);
  const block = `/projects/${write.project}/blocks/${write.block}`;
  return { token, contents: await twoColumns(url, token, block, connections) };
}

/**
 * `connections` small projects (a block, a row of two columns), one content in each: every
 * connection moves the content of a project of its own, so that no move waits for another's
 * lock (a project's writes run one after another by design).
 */
export async function prepareMovesMany(
  url: string,
  token: string,
  connections: number,
): Promise<MoveTargets> {
  const contents: MoveTargets['contents'] = [];
  for (let i = 0; i < connections; i++) {
    const project = idOf(
      await expectCall(201, url, 'POST', '/projects', { token, body: { title: `Moves ${i + 1}` } }),
    );
    const path = `/projects/${project}/blocks`;
    const block = `${path}/${idOf(await expectCall(201, url, 'POST', path, { token, body: { description: 'Moves' } }))}`;
    contents.push(...(await twoColumns(url, token, block, 1)));
  }
  return { token, contents };
}

/**
 * A row of its own in `block` with two columns of 6 and `count` ~300-character texts between
 * them, the first column holding the odd one.
 */
async function twoColumns(
  url: string,
  token: string,
  block: string,
  count: number,
): Promise<MoveTargets['contents']> {
  const ownRow = idOf(await expectCall(201, url, 'POST', `${block}/rows`, { token, body: {} }));
  const path = `${block}/rows/${ownRow}/columns`;
  const made: { ids: string[]; path: string }[] = [];
  for (const side of [0, 1] as const) {
    const body = {
      size: 6,
      contents: Array.from(
        { length: side === 0 ? Math.ceil(count / 2) : Math.floor(count / 2) },
        (_, i) => ({
          type: 'text',
          data: { html: `<p>${'Moved around by the bench. '.repeat(11)}${i}</p>` },
        }),
      ),
    };
    const created = await expectCall(201, url, 'POST', path, { token, body });
    made.push({
      path: `${path}/${idOf(created)}`,
      ids: (created.body as { contents: { _id: string }[] }).contents.map((content) => content._id),
    });
  }
  const columns: [string, string] = [made[0].path, made[1].path];
  return made.flatMap(({ ids }, side) => ids.map((id) => ({ id, columns, column: side as 0 | 1 })));
}

/**
 * `projects` fresh write projects: their blocks (of the seed's shape, 3 rows × 3 columns × 2
 * texts, 31 nodes) are the originals, taken in turn, so that a slice's copies spread over
 * projects, each far from its 500 blocks and 8 MiB.
 */
export async function prepareCopies(
  url: string,
  token: string,
  projects: number,
): Promise<CopyTargets> {
  const blocks: string[] = [];
  for (let i = 0; i < projects; i++) {
    const write = await createWriteProject(url, token);
    blocks.push(`/projects/${write.project}/blocks/${write.block}`);
  }
  return { token, blocks };
}

/**
 * `move` and `move-many`: contents go from one column to the other and back, each move
 * alternately to the other column's end (\`contents.move-to-end\`) and to its top
 * (\`position: 0\`, \`contents.move\`).
 * A content is moved by one request at a time: autocannon resets a connection's context after
 * every request, so a connection does not own a content; each request takes the next content
 * that has no move in flight, and its answer frees it (a 200 also flips its column). Only 200
 * counts as success.
 */
export function measureMoves(
  server: ServerProcess,
  scenario: 'move' | 'move-many',
  targets: MoveTargets,
  settings: LoadSettings,
  dbpid: number | undefined,
): Promise<LoadLine> {
  const contents = targets.contents.map((content) => ({ ...content, busy: false, moves: 0 }));
  type Moved = (typeof contents)[number];
  let next = 0;
  const free = (): Moved => {
    for (let i = 0; i < contents.length; i++) {
      const content = contents[(next + i) % contents.length];
      if (!content.busy) {
        next = (next + i + 1) % contents.length;
        return content;
      }
    }
    // Only after a timeout (an answer that never came): take the next one anyway.
    return contents[next++ % contents.length];
  };
  return measureRequests(server, settings, dbpid, scenario, 200, targets.token, {
    next: (context) => {
      const own = free();
      own.busy = true;
      context.own = own;
      const to = own.columns[own.column === 0 ? 1 : 0].split('/').pop() as string;
      const body = own.moves % 2 === 0 ? { columnId: to } : { columnId: to, position: 0 };
      return {
        method: 'POST',
        path: `${own.columns[own.column]}/contents/${own.id}/move`,
        body,
      };
    },
    answered: (status, context) => {
      const own = context.own as Moved;
      own.busy = false;
      if (status === 200) {
        own.column = own.column === 0 ? 1 : 0;
        own.moves++;
      }
    },
  });
}

/** `duplicate`: copies of the seed's block, right after the original, the originals in turn. */
export function measureCopies(
  server: ServerProcess,
  targets: CopyTargets,
  settings: LoadSettings,
  dbpid: number | undefined,
): Promise<LoadLine> {
  let n = 0;
  return measureRequests(server, settings, dbpid, 'duplicate', 201, targets.token, {
    next: () => ({
      method: 'POST',
      path: `${targets.blocks[n++ % targets.blocks.length]}/duplicate`,
      body: {},
    }),
  });
}

/** What a scenario sends: the next request, given the connection's context for this request. */
export interface Requests {
  next(context: autocannon.Context): {
    method: 'POST' | 'PUT';
    path: string;
    /** Sent as it is when a string, as JSON otherwise. */
    body: object | string;
    /** Besides the default token's (a request of another account names its own). */
    headers?: Record<string, string>;
  };
  /** Told each answer, with the context its request was made in. */
  answered?(status: number, context: autocannon.Context): void;
}

/**
 * A measured run (no warm-up: the caller warms up on targets of its own) of the requests
 * `requests` makes, each connection sending one after another; only `success` counts as success.
 */
export async function measureRequests(
  server: ServerProcess,
  settings: LoadSettings,
  dbpid: number | undefined,
  scenario: string,
  success: number,
  token: string,
  requests: Requests,
): Promise<LoadLine> {
  const usage = sampleUsage(server.pid, dbpid);
  const started = process.hrtime.bigint();
  const result = await autocannon({
    url: server.url,
    connections: settings.connections,
    duration: settings.duration,
    timeout: 10,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    initialContext: {},
    requests: [
      {
        setupRequest: (request, context) => {
          const next = requests.next(context);
          return {
            ...request,
            method: next.method,
            path: next.path,
            headers: next.headers ? { ...request.headers, ...next.headers } : request.headers,
            body: typeof next.body === 'string' ? next.body : JSON.stringify(next.body),
          };
        },
        onResponse: (status, _body, context) => requests.answered?.(status, context),
      },
    ],
  });
  const seconds = result.duration || Number(process.hrtime.bigint() - started) / 1e9;
  const succeeded = result.statusCodeStats[String(success)]?.count ?? 0;
  const answered = Object.values(result.statusCodeStats).reduce((sum, s) => sum + s.count, 0);
  return {
    scenario,
    rps: Math.round(result.requests.total / seconds),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: answered - succeeded,
    errors: result.errors + result.timeouts,
    ...usage(seconds),
  };
}
