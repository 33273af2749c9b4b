import autocannon from 'autocannon';
import { expectCall, idOf } from './http';
import { type ServerProcess } from './processes';
import { sampleUsage } from './proc-stats';
import { type LoadSettings } from './tree-reads';
import { createWriteProject } from './write-project';
import { type LoadLine } from './yardstick';

// The service's own write scenarios, which load.mjs does not have: moves of contents between
// two columns, and copies of a block. Each slice runs on targets made for it beforehand
// (prepareMoves, prepareCopies), as the service's other write slices do.

/** Contents ping-ponged between two columns: one per connection. */
export interface MoveTargets {
  token: string;
  /** The two columns' paths. */
  columns: [string, string];
  /** Each content's id and the column (0 or 1) it starts in. */
  contents: { id: string; column: 0 | 1 }[];
}

/** Blocks of the seed's shape to copy, taken in turn. */
export interface CopyTargets {
  token: string;
  /** Paths of the blocks to copy, in several projects (a project holds 500 blocks, 8 MiB). */
  blocks: string[];
}

/**
 * A fresh write project (seed.mjs's shape) and, in its first row, two columns of `connections`
 * contents each side between them: every connection moves its own content from one column to
 * the other and back, so that at any moment about half the moves go each way.
 */
export async function prepareMoves(
  url: string,
  token: string,
  connections: number,
): Promise<MoveTargets> {
  const write = await createWriteProject(url, token);
  // A row of its own in the first block, with two columns of 6 filled with ~300-character texts.
  const block = `/projects/${write.project}/blocks/${write.block}`;
  const ownRow = idOf(await expectCall(201, url, 'POST', `${block}/rows`, { token, body: {} }));
  const columns: [string, string] = ['', ''];
  const contents: MoveTargets['contents'] = [];
  for (const side of [0, 1] as const) {
    const count = side === 0 ? Math.ceil(connections / 2) : Math.floor(connections / 2);
    const body = {
      size: 6,
      contents: Array.from({ length: count }, (_, i) => ({
        type: 'text',
        data: { html: `<p>${'Moved around by the bench. '.repeat(11)}${i}</p>` },
      })),
    };
    const path = `${block}/rows/${ownRow}/columns`;
    const created = await expectCall(201, url, 'POST', path, { token, body });
    columns[side] = `${path}/${idOf(created)}`;
    for (const content of (created.body as { contents: { _id: string }[] }).contents) {
      contents.push({ id: content._id, column: side });
    }
  }
  return { token, columns, contents };
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
 * `move`: contents go from one column to the other and back, each move alternately to the
 * other column's end (\`contents.move-to-end\`) and to its top (\`position: 0\`, \`contents.move\`).
 * A content is moved by one request at a time: autocannon resets a connection's context after
 * every request, so a connection does not own a content; each request takes the next content
 * that has no move in flight, and its answer frees it (a 200 also flips its column). Only 200
 * counts as success.
 */
export function measureMoves(
  server: ServerProcess,
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
  return measure(server, settings, dbpid, 'move', 200, targets.token, {
    next: (context) => {
      const own = free();
      own.busy = true;
      context.own = own;
      const to = targets.columns[own.column === 0 ? 1 : 0].split('/').pop() as string;
      const body = own.moves % 2 === 0 ? { columnId: to } : { columnId: to, position: 0 };
      return {
        method: 'POST',
        path: `${targets.columns[own.column]}/contents/${own.id}/move`,
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
  return measure(server, settings, dbpid, 'duplicate', 201, targets.token, {
    next: () => ({
      method: 'POST',
      path: `${targets.blocks[n++ % targets.blocks.length]}/duplicate`,
      body: {},
    }),
  });
}

/** What a scenario sends: the next request, given the connection's context for this request. */
interface Requests {
  next(context: autocannon.Context): { method: 'POST'; path: string; body: object };
  /** Told each answer, with the context its request was made in. */
  answered?(status: number, context: autocannon.Context): void;
}

/**
 * A measured run (no warm-up: the caller warms up on targets of its own) of the requests
 * `requests` makes, each connection sending one after another.
 */
async function measure(
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
          return { ...request, ...next, body: JSON.stringify(next.body) };
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
