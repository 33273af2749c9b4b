import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  changeRevisions,
  type EventStreamClient,
  openEventStream,
} from '../support/event-stream-client';
import { checkTreeAccounts } from '../support/tree-invariants';
import { Api, type Response, startTwoInstances } from '../support/test-app';

interface Tree {
  _id: string;
  revision: number;
  blocks: {
    _id: string;
    rows: { _id: string; columns: { _id: string; contents: { _id: string; type: string }[] }[] }[];
  }[];
}

interface Node {
  path: string;
  id: string;
}

/** A small, seeded generator (mulberry32): the same writes on every run. */
function generator(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    chance: (p: number) => next() < p,
    below: (n: number) => Math.floor(next() * n),
    pick<T>(list: readonly T[]): T {
      return list[Math.floor(next() * list.length)];
    },
  };
}

/**
 * The history checked the way an outside client would check it: writes of every kind,
 * drawn at random, sent to two instances in turn, the project read after each; then every past
 * state compared with what was read at its revision, and a stream on each instance holding
 * every revision once, in order.
 */
describe('history under random writes of every kind', () => {
  let apps: NestFastifyApplication[];
  let apis: Api[];
  let token: string;

  beforeAll(async () => {
    ({ apps, apis, token } = await startTwoInstances('random-writes'));
  });
  afterAll(() => Promise.all(apps.map((app) => app.close())));

  function nodesOf(project: string, tree: Tree) {
    const blocks: Node[] = [];
    const rows: Node[] = [];
    const columns: (Node & { contents: { _id: string; type: string }[] })[] = [];
    const contents: Node[] = [];
    for (const block of tree.blocks) {
      const blockPath = `${project}/blocks/${block._id}`;
      blocks.push({ path: blockPath, id: block._id });
      for (const row of block.rows) {
        const rowPath = `${blockPath}/rows/${row._id}`;
        rows.push({ path: rowPath, id: row._id });
        for (const column of row.columns) {
          const columnPath = `${rowPath}/columns/${column._id}`;
          columns.push({ path: columnPath, id: column._id, contents: column.contents });
          for (const content of column.contents) {
            contents.push({ path: `${columnPath}/contents/${content._id}`, id: content._id });
          }
        }
      }
    }
    return { blocks, rows, columns, contents };
  }

  it.each([11, 29])('seed %i: every past state is what was read at its revision', async (seed) => {
    const random = generator(seed);
    let turn = 0;
    const api = () => apis[turn++ % 2];
    const created = await api().post('/projects', { title: `random ${seed}` }, { token });
    const project = created.headers.location as string;
    const streams: EventStreamClient[] = await Promise.all(
      apis.map((instance) =>
        openEventStream(`${instance.baseUrl}${project}/events`, {
          authorization: `Bearer ${token}`,
        }),
      ),
    );
    const recorded = new Map<number, string>();
    let read = await api().get<Tree>(project, { token });
    recorded.set(read.body.revision, read.text);

    const position = () =>
      random.chance(0.3) ? {} : { position: random.pick([0, 1, 2, 9007199254740991]) };
    const content = () =>
      random.pick([
        { type: 'text', data: { html: `<p>${random.below(1000)}</p>` } },
        { type: 'image', data: { url: `https://example.com/${random.below(1000)}.png` } },
        { type: 'empty' },
        { type: 'quote' },
        { type: 'video' },
      ]);
    /** A move of one of `nodes` to one of `parents` (the body's `member`), or in its own. */
    const move = (nodes: Node[], parents: Node[], member: string) =>
      nodes.length
        ? api().post(
            `${random.pick(nodes).path}/move`,
            { ...(random.chance(0.7) ? { [member]: random.pick(parents).id } : {}), ...position() },
            { token },
          )
        : undefined;
    const operations: ((nodes: ReturnType<typeof nodesOf>) => Promise<Response> | undefined)[] = [
      () => api().post(`${project}/blocks`, { description: 'a block', ...position() }, { token }),
      ({ blocks }) =>
        blocks.length
          ? api().post(`${random.pick(blocks).path}/rows`, position(), { token })
          : undefined,
      ({ rows }) =>
        rows.length
          ? api().post(
              `${random.pick(rows).path}/columns`,
              { size: 1 + random.below(4), ...position() },
              { token },
            )
          : undefined,
      ({ columns }) =>
        columns.length
          ? api().post(
              `${random.pick(columns).path}/contents`,
              { ...content(), ...position() },
              { token },
            )
          : undefined,
      ({ contents }) =>
        contents.length ? api().put(random.pick(contents).path, content(), { token }) : undefined,
      ({ columns }) => {
        if (!columns.length) return undefined;
        const column = random.pick(columns);
        // The column's whole list: some of its contents kept, in their order, and a new one.
        const listed: { _id?: string; type: string }[] = column.contents
          .filter(() => random.chance(0.7))
          .map(({ _id, type }) => ({ _id, type }));
        listed.splice(random.below(listed.length + 1), 0, { type: 'quote' });
        return api().put(column.path, { size: 1 + random.below(3), contents: listed }, { token });
      },
      ({ blocks }) =>
        blocks.length
          ? api().put(
              random.pick(blocks).path,
              { description: `d${random.below(100)}`, style: { backgroundColor: '#ff0000' } },
              { token },
            )
          : undefined,
      ({ rows }) =>
        rows.length
          ? api().put(random.pick(rows).path, { description: `r${random.below(100)}` }, { token })
          : undefined,
      () => api().put(project, { title: `t${random.below(100)}` }, { token }),
      (nodes) => {
        const all = [...nodes.blocks, ...nodes.rows, ...nodes.columns, ...nodes.contents];
        return all.length && random.chance(0.5)
          ? api().delete(random.pick(all).path, { token })
          : undefined;
      },
      ({ contents, columns }) => move(contents, columns, 'columnId'),
      ({ columns, rows }) => move(columns, rows, 'rowId'),
      ({ rows, blocks }) => move(rows, blocks, 'blockId'),
      ({ blocks }) =>
        blocks.length
          ? api().post(
              `${random.pick(blocks).path}/move`,
              { position: random.pick([0, 1, 3]) },
              { token },
            )
          : undefined,
      (nodes) => {
        const all = [...nodes.blocks, ...nodes.rows, ...nodes.columns, ...nodes.contents];
        return all.length
          ? api().post(`${random.pick(all).path}/duplicate`, position(), { token })
          : undefined;
      },
      () => {
        const revisions = [...recorded.keys()];
        return random.chance(0.8)
          ? api().post(`${project}/revisions/${random.pick(revisions)}/restore`, undefined, {
              token,
            })
          : undefined;
      },
      () =>
        read.body.revision > 1 && random.chance(0.8)
          ? api().post(`${project}/revisions/${read.body.revision - 1}/restore`, undefined, {
              token,
              headers: { 'if-match': read.headers.etag as string },
            })
          : undefined,
    ];

    for (let i = 0; i < 150; i++) {
      const answer = await random.pick(operations)(nodesOf(project, read.body));
      if (answer === undefined) continue;
      // What a write may meet here: a row without room (409). Anything else is a failure.
      if (answer.status >= 300) {
        expect({ status: answer.status, text: answer.text }).toMatchObject({ status: 409 });
        continue;
      }
      const before = read.body.revision;
      read = await api().get<Tree>(project, { token });
      const revision = Number(answer.headers['project-revision']);
      expect(read.body.revision).toBe(revision);
      if (revision === before) {
        // A write that changed nothing (a node moved to where it was) takes no revision.
        expect(read.text).toBe(recorded.get(revision));
      } else {
        expect(revision).toBe(before + 1);
        recorded.set(revision, read.text);
      }
    }
    expect(recorded.size).toBeGreaterThan(60);

    for (const [revision, text] of recorded) {
      const past = await api().get(`${project}/revisions/${revision}`, { token });
      expect({ revision, status: past.status, text: past.text }).toEqual({
        revision,
        status: 200,
        text,
      });
    }
    const last = read.body.revision;
    const expected = Array.from({ length: last - 1 }, (_, i) => i + 2);
    for (const stream of streams) {
      await stream.waitFor((events) => changeRevisions(events).at(-1) === last, `revision ${last}`);
      expect(changeRevisions(stream.events)).toEqual(expected);
      stream.close();
    }
    const accounts = await checkTreeAccounts(read.body._id);
    expect(accounts.mismatches).toEqual([]);
    expect(accounts.storedTreeBytes).toBe(Buffer.byteLength(read.text));
  });
});
