import { DEFAULT_BLOCK_STYLE, DEFAULT_CONTENT_STYLE } from '@layout/contracts';
import { type Answer } from '../../database/unit-of-work';
import {
  type BlockScope,
  type ColumnScope,
  type ContentScope,
  type LevelScopes,
  type ProjectScope,
  type RowScope,
} from '../layout.scopes';
import { type LockedRound } from '../locked-round';
import { fakeConnection, lockedRound } from '../../../../../test/support/layout-service-fakes';
import { type NewSubtree } from './new-subtree';
import { NodesRepository, type Placement } from './nodes.repository';
import { ProjectsRepository } from './projects.repository';
import { WRITE_REVISION } from './sql/paths.sql';
import {
  type ChildLevel,
  parentOf,
  SORT_KEY_GAP,
  type StoredMember,
  TREE_LEVELS,
} from './sql/tree-levels';

// The write statements of the tree take their revision from the transaction-local setting that
// locking the project sets (WRITE_REVISION), not from a parameter: they are sent behind the lock
// without waiting for its answer, and change nothing when it found no project of the caller's.

const PROJECT: ProjectScope = { accountId: 'acc-1', projectId: 'p1' };
const BLOCK: BlockScope = { ...PROJECT, blockId: 'b1' };
const ROW: RowScope = { ...BLOCK, rowId: 'r1' };
const COLUMN: ColumnScope = { ...ROW, columnId: 'c1' };
const CONTENT: ContentScope = { ...COLUMN, contentId: 'ct1' };
const SCOPES: { [L in ChildLevel]: LevelScopes[L] } = {
  block: BLOCK,
  row: ROW,
  column: COLUMN,
  content: CONTENT,
};
const LEVELS = ['block', 'row', 'column', 'content'] as const;

/** One row with every column a write statement of the tree answers. */
const ANSWER = {
  id: 'n1',
  json: '{}',
  child_count: 1,
  tree_bytes: '1000',
  others: 0,
  previous_revision: 5,
  revision: 5,
  changed: true,
  parent_id: 'c2',
  row_id: 'r2',
  block_id: 'b2',
  moved: true,
  siblings: 2,
  size: 4,
  nodes: '1',
  tree_before: '1000',
  tree_after: '1100',
  copied: true,
  projects: 1,
};

/**
 * Runs `write` as a unit of work behind a lock taken for granted, on a connection that binds
 * every statement as the driver would (so a missing value fails) and answers `answer` (null: no
 * row); records what was sent.
 */
async function recorded<T>(write: (round: LockedRound) => T, answer: object | null = ANSWER) {
  const connection = fakeConnection(() => (answer ? [answer] : []));
  // What `write` answers (its Pending values), read once the round has answered.
  const value = await connection.run((round) => {
    const sent = write(lockedRound(round));
    return round.finish(() => sent as Answer<T>);
  });
  return { sent: connection.sent, rounds: connection.rounds, value };
}

/** A copy's document is read right behind it, by the copy's id: a read, not a write. */
const readsBack = (name: string) => name.endsWith('.copy-document');

const nodes = new NodesRepository();
const projects = new ProjectsRepository();

const VALUES = {
  block: { description: 'Intro', style: { ...DEFAULT_BLOCK_STYLE } },
  row: { description: '' },
  column: { size: 6 },
  content: { type: 'text' as const, style: { ...DEFAULT_CONTENT_STYLE }, data: {} },
};
const CHANGES = {
  block: { description: 'New', style: null },
  row: { description: 'x' },
  column: { size: 5 },
  content: { type: 'text' as const, style: null, data: { html: '<p>x</p>' } },
};
const CONTENT_VALUES = VALUES.content;
const COPY = { copyId: 'n9', maxNodes: 20_000, maxTreeBytes: 8 * 1024 * 1024 };
/** The parent a move or a copy names: another of the project's. */
const OTHER_PARENT = { block: null, row: 'b2', column: 'r2', content: 'c2' } as const;

/** Each placement the writes use, by the name of its statement's intent. */
const PLACEMENTS: [string, (level: ChildLevel) => Placement][] = [
  ['move-to-end', (level) => ({ find: 'path', to: 'end', toParentId: OTHER_PARENT[level] })],
  [
    'move',
    (level) => ({ find: 'path', to: 'position', toParentId: OTHER_PARENT[level], position: 1 }),
  ],
  ['place', () => ({ find: 'id', to: 'position', toParentId: null, position: 1 })],
  ['place-after', () => ({ find: 'id', to: 'after', toParentId: null, afterId: 'n0' })],
];

type Write = [string, string[], (round: LockedRound) => unknown];

/** Every write of the nodes' repository, at every level, and the project's own. */
const WRITES: Write[] = [
  ...LEVELS.flatMap((level): Write[] => {
    const scope = SCOPES[level];
    const name = (intent: string) => `nodes.${level}.${intent}`;
    return [
      [
        `insert (${level})`,
        [name('insert')],
        (round) => nodes.insert(round, level, scope, VALUES[level]),
      ],
      [
        `update (${level})`,
        [name('update')],
        (round) => nodes.update(round, level, scope, CHANGES[level]),
      ],
      [
        `updateEach (${level})`,
        [name('update-each')],
        (round) =>
          nodes.updateEach(round, level, PROJECT.projectId, [
            { scope, changes: CHANGES[level] },
            { scope: { ...scope, [TREE_LEVELS[level].idParam]: 'n2' }, changes: CHANGES[level] },
          ]),
      ],
      [`delete (${level})`, [name('delete')], (round) => nodes.delete(round, level, scope)],
      ...PLACEMENTS.map(([intent, placement]): Write => [
        `place (${level}, ${intent})`,
        [name(intent)],
        (round) => nodes.place(round, level, scope, placement(level)),
      ]),
      [
        `copy (${level})`,
        [name('copy'), name('copy-document')],
        (round) => nodes.copy(round, level, scope, { ...COPY, toParentId: OTHER_PARENT[level] }),
      ],
    ];
  }),
  [
    'replaceContents',
    ['nodes.column.replace-contents'],
    (round) =>
      nodes.replaceContents(round, COLUMN, [{ id: 'ct1', ...CONTENT_VALUES }, CONTENT_VALUES]),
  ],
  ['projects.retitle', ['projects.retitle'], (round) => projects.retitle(round, PROJECT, 'New')],
];

/** Reads made inside a write, before changing anything: they too find nothing behind a failed lock. */
const READS_UNDER_THE_LOCK: [string, string, (round: LockedRound) => unknown][] = [
  [
    'findColumnContents',
    'nodes.column.find-contents',
    (round) => nodes.findColumnContents(round, COLUMN),
  ],
];

/** The moves of each level (a placement found on the request's path), to the end and to a position. */
const MOVES = (['end', 'position'] as const).flatMap((to) =>
  LEVELS.map((level) => {
    const placement: Placement =
      to === 'end'
        ? { find: 'path', to, toParentId: OTHER_PARENT[level] }
        : { find: 'path', to, toParentId: OTHER_PARENT[level], position: 1 };
    return [level, to, (round: LockedRound) => nodes.place(round, level, SCOPES[level], placement)];
  }),
) as [ChildLevel, 'end' | 'position', (round: LockedRound) => any][];

/** The placements that may need room in the middle of a list: a position, or after a sibling. */
const MIDDLES = LEVELS.flatMap((level) =>
  PLACEMENTS.filter(([intent]) => intent !== 'move-to-end').map(
    ([intent, placement]) =>
      [
        level,
        intent,
        (round: LockedRound) => nodes.place(round, level, SCOPES[level], placement(level)),
      ] as const,
  ),
);

const COPIES: [
  ChildLevel,
  string[],
  (round: LockedRound) => ReturnType<NodesRepository['copy']>,
][] = (
  [
    ['block', ['blocks', 'rows', 'columns', 'contents']],
    ['row', ['rows', 'columns', 'contents']],
    ['column', ['columns', 'contents']],
    ['content', ['contents']],
  ] as const
).map(([level, tables]) => [
  level,
  [...tables],
  (round) => nodes.copy(round, level, SCOPES[level], { ...COPY, toParentId: null }),
]);

describe('the write statements of the tree', () => {
  describe.each(WRITES)('%s', (_method, names, write) => {
    it('sends its statements in one round, with a value for each of their parameters', async () => {
      const { sent, rounds } = await recorded(write);
      expect(sent.map(({ statement }) => statement.name)).toEqual(names);
      expect(rounds).toHaveLength(1);
      for (const { statement, values } of sent) {
        expect(values).toHaveLength(statement.parameters.length);
      }
    });

    it('is told no revision: it takes the one the lock set in the transaction', async () => {
      const { sent } = await recorded(write);
      for (const { statement, params } of sent) {
        expect(statement.parameters).not.toContain('revision');
        expect(params).not.toHaveProperty('revision');
        if (!readsBack(statement.name)) expect(statement.text).toContain(WRITE_REVISION);
      }
    });

    it('changes nothing when the lock set no revision (no project of the caller’s)', async () => {
      const { sent } = await recorded(write);
      for (const { statement } of sent.filter(({ statement }) => !readsBack(statement.name))) {
        expect(statement.text).toContain(`${WRITE_REVISION} IS NOT NULL`);
      }
    });
  });

  it.each(READS_UNDER_THE_LOCK)(
    '%s finds nothing when the lock set no revision',
    async (_method, name, read) => {
      const { sent } = await recorded(read);
      expect(sent.map(({ statement }) => statement.name)).toEqual([name]);
      expect(sent[0].statement.text).toContain(`${WRITE_REVISION} IS NOT NULL`);
    },
  );

  describe.each(LEVELS)('the update of a %s', (level) => {
    const { table } = TREE_LEVELS[level];
    const update = (round: LockedRound) =>
      nodes.update(round, level, SCOPES[level], CHANGES[level]);

    it('sets the node’s revision, not its list revision (its children’s list keeps its tag)', async () => {
      const { sent } = await recorded(update);
      const text = sent[0].statement.text;
      const sets = text.slice(text.indexOf(`UPDATE ${table} x SET`), text.indexOf('FROM target t'));
      expect(sets).toContain(`revision = ${WRITE_REVISION}`);
      expect(sets).not.toContain('list_revision');
    });

    it('keeps a member whose parameter is null, and writes nothing when no member changes', async () => {
      const { sent } = await recorded(update);
      const text = sent[0].statement.text;
      for (const { column, ...member } of TREE_LEVELS[level].members as readonly StoredMember[]) {
        if (member.reset) {
          // Left out, it is kept while the member that resets it keeps its value.
          const { by, to } = member.reset;
          expect(text).toMatch(
            new RegExp(
              `${column} = CASE WHEN \\$\\d+::json IS NULL THEN CASE WHEN COALESCE\\(\\$\\d+::\\w+, x\\.${by}\\) = x\\.${by}\\s+THEN x\\.${column} ELSE ${to.replace(/[{}()]/g, '\\$&')} END`,
            ),
          );
        } else if (member.json) {
          expect(text).toMatch(
            new RegExp(
              `${column} = CASE WHEN \\$\\d+::json IS NULL OR \\$\\d+::json::jsonb = x\\.${column}::jsonb\\s+THEN x\\.${column} ELSE \\$\\d+::json END`,
            ),
          );
        } else {
          expect(text).toMatch(
            new RegExp(`${column} = COALESCE\\(\\$\\d+::\\w+, x\\.${column}\\)`),
          );
        }
      }
      // The row is updated only where a member differs: else not written, no revision.
      expect(text).toMatch(/AND ROW\(.*\)\s+IS DISTINCT FROM ROW\(/s);
    });

    it('reports the node’s tag before it, whether it changed, its document and the project’s size', async () => {
      const { value } = await recorded(update, {
        previous_revision: 5,
        changed: false,
        json: '{"_id":"n1"}',
        tree_bytes: null,
        others: 3,
      });
      expect(value.get()).toEqual({
        previousRevision: 5,
        changed: false,
        json: '{"_id":"n1"}',
        treeBytes: undefined,
        others: 3,
      });
      const changed = await recorded(update, { ...ANSWER, tree_bytes: '1200' });
      expect(changed.value.get()).toMatchObject({ changed: true, treeBytes: 1200 });
    });

    it('reports no node when there is none on the path', async () => {
      const { value } = await recorded(update, null);
      expect(value.get()).toBeUndefined();
    });
  });

  describe('several updates of contents in one statement', () => {
    const OTHER = { ...CONTENT, contentId: 'ct2' };
    const updates = [
      {
        scope: CONTENT,
        changes: { type: 'text' as const, style: null, data: { html: '<p>a</p>' } },
      },
      { scope: OTHER, changes: { type: 'image' as const, style: null, data: null } },
    ];
    const updateEach = (round: LockedRound) => nodes.updateEach(round, 'content', 'p1', updates);

    it('binds one array per path parameter and per member, in the updates’ order, JSON as its text', async () => {
      const { sent } = await recorded(updateEach);
      expect(sent[0].params).toEqual({
        projectId: 'p1',
        contentIds: ['ct1', 'ct2'],
        columnIds: [CONTENT.columnId, CONTENT.columnId],
        rowIds: [CONTENT.rowId, CONTENT.rowId],
        blockIds: [CONTENT.blockId, CONTENT.blockId],
        types: ['text', 'image'],
        styles: [null, null],
        datas: ['{"html":"<p>a</p>"}', null],
      });
      // The ancestors follow the changed rows under as many parents as they name.
      expect(sent[0].statement.text).toContain(
        'parent_changes AS (\n  SELECT c.parent_id, sum(c.count)',
      );
    });

    it('reports each update by its place, none where no node is on its path', async () => {
      const rows = [
        { n: 1, previous_revision: 5, changed: true, json: '{"_id":"ct1"}', tree_bytes: '1200' },
        { n: 2, previous_revision: null, changed: false, json: null, tree_bytes: null },
      ];
      const connection = fakeConnection(() => rows);
      const value = await connection.run((round) => {
        const sent = updateEach(lockedRound(round));
        return round.finish(() => sent);
      });
      expect(value.get()).toEqual([
        {
          previousRevision: 5,
          changed: true,
          json: '{"_id":"ct1"}',
          treeBytes: 1200,
          others: undefined,
        },
        undefined,
      ]);
    });
  });

  it.each(LEVELS)(
    'the insert of a %s appends the node with the id its scope names, under the parent on the path, and reports it',
    async (level) => {
      const scope = SCOPES[level];
      const { sent, value } = await recorded((round) =>
        nodes.insert(round, level, scope, VALUES[level] as never),
      );
      const [{ statement, params }] = sent;
      const { idParam } = TREE_LEVELS[level];
      expect(params).toMatchObject({ [idParam]: (scope as any)[idParam] });
      expect(statement.text).toContain(
        `$${statement.parameters.indexOf(idParam as never) + 1}::uuid`,
      );
      // At the end of the parent's list: after its last key.
      expect(statement.text).toContain(`ORDER BY x.sort_key DESC LIMIT 1), 0) + ${SORT_KEY_GAP}`);
      expect(value.get()).toEqual({
        json: '{}',
        siblings: 2,
        treeBytes: 1000,
        others: 0,
      });
    },
  );

  describe.each(['block', 'row', 'column'] as const)(
    'the insert of a %s with the nodes its body lists beneath it',
    (level) => {
      const beneath = LEVELS.slice(LEVELS.indexOf(level) + 1);
      /** Two nodes of each level beneath, the first of each the parent of the next level's. */
      const subtree: NewSubtree = { nodes: 1 + 2 * beneath.length, levels: {} };
      let parent = 'n0';
      for (const child of beneath) {
        const ids = [`${child}-1`, `${child}-2`];
        Object.assign(subtree.levels, {
          [child]: {
            ids,
            parents: [parent, parent],
            keys: [String(SORT_KEY_GAP), String(2 * SORT_KEY_GAP)],
            values: [VALUES[child], VALUES[child]],
          },
        });
        parent = ids[0];
      }
      const insert = (round: LockedRound) =>
        nodes.insert(round, level, SCOPES[level], VALUES[level], subtree);

      it('binds one array per level beneath it and per member, JSON members as their text, in one statement', async () => {
        const { sent, rounds } = await recorded(insert);
        expect(rounds).toEqual([[`nodes.${level}.insert`]]);
        const [{ statement, params, values }] = sent;
        expect(values).toHaveLength(statement.parameters.length);
        for (const child of beneath) {
          const nodesOf = subtree.levels[child]!;
          expect(params).toMatchObject({
            [`${child}Ids`]: nodesOf.ids,
            [`${child}Parents`]: nodesOf.parents,
            [`${child}Keys`]: nodesOf.keys,
          });
          for (const { column, json } of TREE_LEVELS[child].members as readonly StoredMember[]) {
            const value = (VALUES[child] as Record<string, unknown>)[column];
            const param = `${child}${column[0].toUpperCase()}${column.slice(1)}s`;
            expect((params as Record<string, unknown>)[param]).toEqual(
              json ? [JSON.stringify(value), JSON.stringify(value)] : [value, value],
            );
          }
        }
      });

      it('inserts each level beneath it at the write’s revision, once the node itself was inserted', async () => {
        const { sent } = await recorded(insert);
        const text = sent[0].statement.text;
        for (const child of beneath) {
          const { table, alias } = TREE_LEVELS[child];
          const inserted = text.slice(text.indexOf(`new_${alias}_inserted AS (`));
          expect(inserted).toMatch(
            new RegExp(`^new_${alias}_inserted AS \\(\\s+INSERT INTO ${table} `),
          );
          expect(inserted.slice(0, inserted.indexOf('RETURNING'))).toContain(
            'WHERE EXISTS (SELECT 1 FROM inserted)',
          );
          expect(inserted.slice(0, inserted.indexOf('RETURNING'))).toContain(WRITE_REVISION);
        }
      });

      it('binds empty arrays when its body lists none', async () => {
        const { sent } = await recorded((round) =>
          nodes.insert(round, level, SCOPES[level], VALUES[level] as never),
        );
        for (const child of beneath) {
          expect(sent[0].params).toMatchObject({ [`${child}Ids`]: [], [`${child}Parents`]: [] });
        }
      });
    },
  );

  it('a column’s insert, update, placements and copy report the row’s other columns’ width', async () => {
    const writes: ((round: LockedRound) => unknown)[] = [
      (round: LockedRound) => nodes.insert(round, 'column', COLUMN, { size: 6 }),
      (round: LockedRound) => nodes.update(round, 'column', COLUMN, { size: 5 }),
      ...PLACEMENTS.map(
        ([, placement]) =>
          (round: LockedRound) =>
            nodes.place(round, 'column', COLUMN, placement('column')),
      ),
      (round: LockedRound) => nodes.copy(round, 'column', COLUMN, { ...COPY, toParentId: null }),
    ];
    for (const write of writes) {
      const { sent } = await recorded(write);
      expect(sent[0].statement.text).toMatch(
        /SELECT COALESCE\(sum\(o\.size\), 0\)::int FROM columns o/,
      );
      expect(sent[0].statement.text).toMatch(/ AS others\b/);
    }
    // The other levels' parents keep a count, which every write reports as `siblings`.
    const { sent } = await recorded((round) => nodes.insert(round, 'row', ROW, VALUES.row));
    expect(sent[0].statement.text).not.toMatch(/ AS others\b/);
  });

  it('deletes the node on the path with its subtree and reports the revision it had', async () => {
    const { sent, value } = await recorded((round) => nodes.delete(round, 'row', ROW), {
      previous_revision: 5,
    });
    expect(sent[0].statement.text).toContain('DELETE FROM rows y USING target t');
    expect(value.get()).toBe(5);
    const none = await recorded((round) => nodes.delete(round, 'row', ROW), null);
    expect(none.value.get()).toBeUndefined();
  });

  it('finds a column’s contents for the plan of its new list, none reported as an empty list', async () => {
    const { value } = await recorded((round) => nodes.findColumnContents(round, COLUMN), {
      revision: 5,
      size: 4,
      others: 6,
      contents: null,
    });
    expect(value.get()).toEqual({ revision: 5, size: 4, others: 6, contents: [] });
    const none = await recorded((round) => nodes.findColumnContents(round, COLUMN), null);
    expect(none.value.get()).toBeUndefined();
  });

  it('replaces a column’s contents with its new list as arrays, and reports the project’s size (none when nothing changed)', async () => {
    const contents = [{ id: 'ct1', ...CONTENT_VALUES }, CONTENT_VALUES];
    const { sent, value } = await recorded(
      (round) => nodes.replaceContents(round, COLUMN, contents),
      { tree_bytes: '1300' },
    );
    expect(sent[0].params).toEqual({
      ...COLUMN,
      ids: ['ct1', null],
      types: ['text', 'text'],
      styles: [JSON.stringify(DEFAULT_CONTENT_STYLE), JSON.stringify(DEFAULT_CONTENT_STYLE)],
      datas: ['{}', '{}'],
    });
    expect(value.get()).toBe(1300);
    const unchanged = await recorded((round) => nodes.replaceContents(round, COLUMN, contents), {
      tree_bytes: null,
    });
    expect(unchanged.value.get()).toBeUndefined();
  });

  describe.each(MOVES)('the move of a %s to the %s', (level, to, move) => {
    const { table, parentColumn } = TREE_LEVELS[level];

    it('sets the node’s parent, sort key and revision (its tag: of two movers with one tag, one wins), not its list’s tag', async () => {
      const { sent } = await recorded(move);
      const text = sent[0].statement.text;
      const moved = text.slice(text.indexOf('moved AS ('));
      const sets = moved.slice(moved.indexOf(`UPDATE ${table} y`), moved.indexOf('FROM placed pl'));
      expect(sets).toContain(`${parentColumn} = pl.parent_id`);
      expect(sets).toMatch(/sort_key = (COALESCE\(\s*)?pl\.sort_key\b/);
      expect(sets).toContain(`revision = ${WRITE_REVISION}`);
      expect(sets).not.toContain('list_revision');
    });

    it('is the statement of its kind: the end has room, a position may renumber the list', async () => {
      const { sent } = await recorded(move);
      const { name, text, parameters } = sent[0].statement;
      if (to === 'end') {
        expect(name).toBe(`nodes.${level}.move-to-end`);
        expect(text).not.toContain('renumbered AS (');
        expect(parameters).not.toContain('position');
      } else {
        expect(name).toBe(`nodes.${level}.move`);
        expect(parameters).toContain('position');
        // A renumbering of the list changes the others' sort keys alone.
        const renumbered = text.slice(text.indexOf('renumbered AS ('), text.indexOf('moved AS ('));
        expect(renumbered).toMatch(
          new RegExp(
            `UPDATE ${table} y SET sort_key = \\(SELECT pl\\.top_key FROM placed pl\\) \\+ o\\.n \\* \\d+\\s+FROM`,
          ),
        );
      }
    });

    it('finds the node on the request’s path, and its new parent (its own when none is named) within the project', async () => {
      const { sent } = await recorded(move);
      const { text } = sent[0].statement;
      const { alias, parentColumn } = TREE_LEVELS[level];
      const target = text.slice(text.indexOf('target AS ('), text.indexOf('destination AS ('));
      expect(target).toMatch(
        new RegExp(`${alias}\\.id = \\$\\d+ AND ${alias}\\.${parentColumn} = \\$\\d+`),
      );
      expect(sent[0].params).toMatchObject({ ...SCOPES[level], toParentId: OTHER_PARENT[level] });
      if (level !== 'block') {
        const parent = TREE_LEVELS[parentOf(level)];
        expect(text).toMatch(
          new RegExp(
            `${parent.alias}\\.id = COALESCE\\(\\$\\d+::uuid, \\$\\d+::uuid\\)\\s+AND ${parent.alias}\\.project_id = \\$\\d+`,
          ),
        );
      }
    });

    it('states one changed row with both parents, so that the ancestors of both follow', async () => {
      const { sent } = await recorded(move);
      expect(sent[0].statement.text).toContain(
        'changed (id, old_parent, new_parent, old_bytes, new_bytes) AS (SELECT t.id, t.parent_id, pl.parent_id, t.bytes, t.bytes',
      );
    });

    it('writes nothing when the node is where the request puts it already', async () => {
      const { sent } = await recorded(move);
      const text = sent[0].statement.text;
      const moved = text.slice(text.indexOf('moved AS ('));
      // The node is found by its key, and only when it does not stay where it is.
      expect(moved.slice(0, moved.indexOf('RETURNING'))).toContain(
        'WHERE y.id = (SELECT p.id FROM placed p WHERE NOT p.stays)',
      );
      expect(text).toContain('m.id IS NOT NULL AS moved');
    });

    it('reports what the statement answers: its tag, its document, where it went, whether it moved', async () => {
      const { size: _size, others: _others, ...answer } = ANSWER;
      const { value } = await recorded(move, level === 'column' ? ANSWER : answer);
      expect(value.get()).toEqual({
        revision: 5,
        json: '{}',
        destination: { id: 'c2', rowId: 'r2', blockId: 'b2' },
        moved: true,
        siblings: 2,
        treeBytes: 1000,
        size: level === 'column' ? 4 : undefined,
        others: level === 'column' ? 0 : undefined,
      });
    });

    it('reports no destination when the parent asked for is not in the project', async () => {
      const { value } = await recorded(move, { ...ANSWER, parent_id: null, moved: false });
      expect(value.get()).toMatchObject({ destination: undefined, moved: false });
    });
  });

  describe.each(MIDDLES)('the placement of a %s (%s)', (level, intent, place) => {
    const { table } = TREE_LEVELS[level];

    it('renumbers the list once, in the same statement, when the gap at the place is used up', async () => {
      const { sent } = await recorded(place);
      const text = sent[0].statement.text;
      const renumbered = text.slice(text.indexOf('renumbered AS ('), text.indexOf('moved AS ('));
      // Only when the place has no key left (and the node moves), above every current key.
      // Decided once, before anything is read (a one-time filter), not joined to each row.
      expect(renumbered).toContain(
        'AND (SELECT pl.sort_key IS NULL AND NOT pl.stays FROM placed pl)',
      );
      expect(text).toContain('GREATEST(s.own_key, s.last_key) AS top_key');
      expect(renumbered).toMatch(
        new RegExp(
          `UPDATE ${table} y SET sort_key = \\(SELECT pl\\.top_key FROM placed pl\\) \\+ o\\.n \\* ${SORT_KEY_GAP}\\s+FROM`,
        ),
      );
      // The node then takes the middle of its place among them: there is always room.
      expect(text).toContain(
        `sort_key = COALESCE(pl.sort_key, pl.top_key + pl.place * ${SORT_KEY_GAP} + ${SORT_KEY_GAP / 2})`,
      );
    });

    it('states the renumbered siblings as changed in place, so that their parent’s bookkeeping follows', async () => {
      const { sent } = await recorded(place);
      expect(sent[0].statement.text).toContain(
        'SELECT r.id, r.parent_id, r.parent_id, 0::bigint, 0::bigint FROM renumbered r',
      );
    });

    if (intent === 'place' || intent === 'place-after') {
      it('finds a node the write made by its id, anywhere in the project, and reads no document of it', async () => {
        const { sent } = await recorded(place);
        const { text } = sent[0].statement;
        const { alias, idParam } = TREE_LEVELS[level];
        expect(sent[0].statement.parameters).toContain(idParam);
        const target = text.slice(text.indexOf('target AS ('), text.indexOf('destination AS ('));
        expect(target).toMatch(
          new RegExp(
            `FROM ${table} ${alias}\\s+WHERE ${alias}\\.id = \\$\\d+ AND ${alias}\\.project_id = \\$\\d+\\s+AND `,
          ),
        );
        expect(target).toContain(`${WRITE_REVISION} IS NOT NULL`);
        expect(target).not.toContain('JOIN');
        expect(target).toContain('NULL::text AS json');
      });
    }

    if (intent === 'place-after') {
      it('goes right after the sibling named, read by its id within the project', async () => {
        const { sent } = await recorded(place);
        const { text, parameters } = sent[0].statement;
        expect(parameters).toContain('afterId');
        expect(sent[0].params).toMatchObject({ afterId: 'n0', position: null });
        expect(text).toMatch(
          new RegExp(
            `FROM ${table} x WHERE x\\.id = \\$\\d+::uuid AND x\\.project_id = \\$\\d+\\) a`,
          ),
        );
        expect(text).not.toMatch(/OFFSET \$\d+::bigint/);
      });
    }
  });

  describe.each(COPIES)('the copy of a %s', (level, tables, copy) => {
    it('copies the node and everything beneath it in one statement, then reads the copy by its id in the same round', async () => {
      const { sent, rounds } = await recorded(copy);
      expect(rounds).toHaveLength(1);
      const [copied, document] = sent;
      for (const table of tables) expect(copied.statement.text).toContain(`INSERT INTO ${table} `);
      expect(copied.params).toMatchObject({ copyId: 'n9', maxNodes: 20_000 });
      expect(document.statement.name).toBe(`nodes.${level}.copy-document`);
      expect(document.params).toEqual({ projectId: 'p1', copyId: 'n9' });
      expect(document.statement.text).toMatch(/\.id = \$\d+ AND \w+\.project_id = \$\d+/);
    });

    it('puts the copy at the end of its parent’s list: a place elsewhere is a placement of its own', async () => {
      const { sent } = await recorded(copy);
      expect(sent[0].statement.parameters).not.toContain('sortKey');
      expect(sent[0].statement.text).toContain(
        `ORDER BY x.sort_key DESC LIMIT 1), 0) + ${SORT_KEY_GAP}`,
      );
    });

    it('gives every node it makes the write’s revision', async () => {
      const { sent } = await recorded(copy);
      const text = sent[0].statement.text;
      // One insert per level copied, besides the revision's row (RECORD_REVISION).
      const inserts = text.split('INSERT INTO ').length - 1;
      expect(inserts).toBe(tables.length + 1);
      expect(text).toContain('INSERT INTO revisions ');
      expect(text.split(`${WRITE_REVISION} IS NOT NULL`).length).toBeGreaterThan(1);
    });

    it('copies nothing past its limits: the nodes, the project’s size (and a column’s row width)', async () => {
      const { sent } = await recorded(copy);
      const text = sent[0].statement.text;
      expect(text).toMatch(/f\.nodes <= \$\d+::bigint AND f\.tree_after <= \$\d+::bigint/);
      expect(text.match(/CROSS JOIN \(SELECT 1 FROM allowed LIMIT 1\) gate/g)).toHaveLength(
        tables.length,
      );
      if (level === 'column') expect(text).toMatch(/\+ s\.size <= 12/);
    });

    it('reports what the statement answers, and the copy’s document', async () => {
      const { value } = await recorded(copy);
      expect(value.copied.get()).toMatchObject({
        revision: 5,
        destination: { id: 'c2', rowId: 'r2', blockId: 'b2' },
        nodes: 1,
        treeBefore: 1000,
        treeAfter: 1100,
        siblings: 2,
        copied: true,
      });
      expect(value.json.get()).toBe('{}');
    });
  });
});

const CHANGE = { operation: 'row.move', path: '/projects/p/blocks/b/rows/r', historyRevisions: 10 };

describe('ProjectsRepository.lockForWrite', () => {
  it('locks the project of which the account is a member, with its membership, and sets the revision the write creates, for this transaction only', async () => {
    const { sent, value } = await recorded(
      (round) => projects.lockForWrite(round, PROJECT, CHANGE, 'editor'),
      {
        revision: 7,
        title: 'Old',
        tree_bytes: '1000',
        role: 'editor',
      },
    );
    expect(value.get()).toEqual({ revision: 7, title: 'Old', treeBytes: 1000, role: 'editor' });
    expect(sent).toHaveLength(1);
    const [{ statement, params }] = sent;
    expect(statement.name).toBe('projects.lock');
    expect(params).toEqual({ ...PROJECT, ...CHANGE, least: 'editor' });
    // What the history records of the write, beside it, for the same transaction only.
    expect(statement.text).toContain(`set_config('layout.operation', $4, true)`);
    expect(statement.text).toContain(`set_config('layout.author', $2::text, true)`);
    expect(statement.text).toMatch(/m\.account_id = \$\d/);
    // The project locked against its writers, the membership against its removal.
    expect(statement.text).toContain('FOR NO KEY UPDATE OF p FOR SHARE OF m');
    // set_config's third argument true: local to the transaction, gone at its end; nothing set
    // for a member whose role is less than the write needs.
    expect(statement.text).toMatch(
      /set_config\('layout\.revision', CASE WHEN p\.allowed THEN \(p\.revision \+ 1\)::text ELSE '' END,\s+true\)/,
    );
    expect(statement.text).toMatch(/m\.role >= \$\d+::project_role AS allowed/);
    // WRITE_REVISION reads that very setting.
    expect(WRITE_REVISION).toContain(`current_setting('layout.revision', true)`);
  });

  it('answers undefined when the account is no member of the project', async () => {
    const { value } = await recorded(
      (round) => projects.lockForWrite(round, PROJECT, CHANGE, 'editor'),
      null,
    );
    expect(value.get()).toBeUndefined();
  });
});

describe('ProjectsRepository.insert', () => {
  const PROJECT_ID = '0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a83';
  const SUBTREE: NewSubtree = {
    nodes: 2,
    levels: {
      block: { ids: ['b1'], parents: [PROJECT_ID], keys: ['1048576'], values: [VALUES.block] },
    },
  };
  const insert = (round: LockedRound) =>
    projects.insert(round, { accountId: 'acc-1', projectId: PROJECT_ID, title: 'New' }, SUBTREE);

  it('makes the project with the id given and its tree in one statement, every node at revision 1', async () => {
    const { sent, rounds } = await recorded(insert);
    expect(rounds).toEqual([['projects.insert']]);
    const [{ statement, params, values }] = sent;
    expect(values).toHaveLength(statement.parameters.length);
    expect(params).toMatchObject({
      accountId: 'acc-1',
      projectId: PROJECT_ID,
      title: 'New',
      blockIds: ['b1'],
      blockParents: [PROJECT_ID],
      blockDescriptions: ['Intro'],
      blockStyles: [JSON.stringify(DEFAULT_BLOCK_STYLE)],
      rowIds: [],
      columnIds: [],
      contentIds: [],
    });
    for (const table of ['projects', 'blocks', 'rows', 'columns', 'contents']) {
      expect(statement.text).toContain(`INSERT INTO ${table} `);
    }
    // Not behind any lock: the new project's nodes are at revision 1, whatever the setting says.
    expect(statement.text).not.toContain(WRITE_REVISION);
    expect(statement.text).toMatch(
      /INSERT INTO blocks \(id, project_id, sort_key, description, style, revision, list_revision\b[^)]*\)\s+SELECT x\.id, \$\d+::uuid, x\.sort_key, x\.description, x\.style, 1, 1,/,
    );
    expect(statement.text).toContain('SET project_count = a.project_count + 1');
  });

  it('reports the project’s document, the account’s projects and the tree’s bytes; nothing for an account gone', async () => {
    const { value } = await recorded(insert, { json: '{}', projects: 3, tree_bytes: '1200' });
    expect(value.get()).toEqual({ json: '{}', projects: 3, treeBytes: 1200 });
    const gone = await recorded(insert, null);
    expect(gone.value.get()).toBeUndefined();
  });
});

describe('ProjectsRepository.copy', () => {
  const REQUEST = {
    copyId: 'p9',
    title: null,
    titleMax: 200,
    titleSuffix: ' (copy)',
    maxNodes: 20_000,
  };
  const copy = (round: LockedRound) => projects.copy(round, PROJECT, REQUEST);

  it('copies in one statement, then reads the copy by its id in the same round, with a value for each parameter', async () => {
    const { sent, rounds } = await recorded(copy);
    expect(rounds).toEqual([['projects.copy', 'projects.copy-document']]);
    for (const { statement, values } of sent) {
      expect(values).toHaveLength(statement.parameters.length);
    }
    expect(sent[1].params).toEqual({ projectId: 'p1', copyId: 'p9' });
  });

  it('copies only the caller’s project, into a new one of theirs at revision 1, counted among their projects', async () => {
    const { sent } = await recorded(copy);
    const text = sent[0].statement.text;
    expect(text).toMatch(/p\.id = \$\d+ AND EXISTS \(SELECT 1 FROM project_members pm/);
    expect(text).toContain('SET project_count = a.project_count + 1');
    for (const table of ['projects', 'blocks', 'rows', 'columns', 'contents']) {
      expect(text).toContain(`INSERT INTO ${table} `);
    }
    // Not behind the original's lock: its copies are at revision 1, whatever the setting says.
    expect(text).not.toContain(WRITE_REVISION);
    expect(text).toMatch(/f\.nodes <= \$\d+::bigint/);
  });

  it('reports what the statement answers, and the copy’s document', async () => {
    const { value } = await recorded(copy);
    expect(value.copied.get()).toEqual({
      revision: 5,
      nodes: 1,
      projects: 1,
      treeBytes: 1000,
      copied: true,
    });
    expect(value.json.get()).toBe('{}');
  });
});
