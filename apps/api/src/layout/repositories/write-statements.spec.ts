import { DEFAULT_BLOCK_STYLE, DEFAULT_CONTENT_STYLE } from '@layout/contracts';
import { type Answer, type Round } from '../../database/unit-of-work';
import {
  type BlockScope,
  type ColumnScope,
  type ContentScope,
  type ProjectScope,
  type RowScope,
} from '../layout.scopes';
import { fakeConnection } from '../../../../../test/support/layout-service-fakes';
import { BlocksRepository } from './blocks.repository';
import { ColumnsRepository } from './columns.repository';
import { ContentsRepository } from './contents.repository';
import { ProjectsRepository } from './projects.repository';
import { RowsRepository } from './rows.repository';
import { SiblingOrderRepository } from './sibling-order.repository';
import { WRITE_REVISION } from './sql/paths.sql';
import { TREE_LEVELS } from './sql/tree-levels';

// The write statements of the tree take their revision from the transaction-local setting that
// locking the project sets (WRITE_REVISION), not from a parameter: they are sent behind the lock
// without waiting for its answer, and change nothing when it found no project of the caller's.

const PROJECT: ProjectScope = { accountId: 'acc-1', projectId: 'p1' };
const BLOCK: BlockScope = { ...PROJECT, blockId: 'b1' };
const ROW: RowScope = { ...BLOCK, rowId: 'r1' };
const COLUMN: ColumnScope = { ...ROW, columnId: 'c1' };
const CONTENT: ContentScope = { ...COLUMN, contentId: 'ct1' };

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
  stays: false,
  sort_key: '1500',
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
 * Runs `write` as a unit of work on a connection that binds every statement as the driver
 * would (so a missing value fails) and answers `answer` (null: no row); records what was sent.
 */
async function recorded<T>(write: (round: Round) => T, answer: object | null = ANSWER) {
  const connection = fakeConnection(() => (answer ? [answer] : []));
  // What `write` answers (its Pending values), read once the round has answered.
  const value = await connection.run((round) => {
    const sent = write(round);
    return round.finish(() => sent as Answer<T>);
  });
  return { sent: connection.sent, rounds: connection.rounds, value };
}

/** A copy's document is read right behind it, by the copy's id: a read, not a write. */
const readsBack = (name: string) => name.endsWith('.copy-document');

const blocks = new BlocksRepository();
const rows = new RowsRepository();
const columns = new ColumnsRepository();
const contents = new ContentsRepository();
const projects = new ProjectsRepository();
const order = new SiblingOrderRepository();

const BLOCK_VALUES = { description: 'Intro', style: { ...DEFAULT_BLOCK_STYLE } };
const CONTENT_VALUES = { type: 'text' as const, style: { ...DEFAULT_CONTENT_STYLE }, data: {} };
const COPY = { copyId: 'n9', sortKey: null, maxNodes: 20_000, maxTreeBytes: 8 * 1024 * 1024 };

const WRITES: [string, string[], (round: Round) => unknown][] = [
  [
    'blocks.insert',
    ['blocks.insert'],
    (round) => blocks.insert(round, PROJECT, BLOCK_VALUES, { sortKey: null }),
  ],
  [
    'blocks.update',
    ['blocks.update'],
    (round) => blocks.update(round, BLOCK, BLOCK_VALUES, { sortKey: '1500', changed: true }),
  ],
  ['blocks.delete', ['blocks.delete'], (round) => blocks.delete(round, BLOCK)],
  [
    'blocks.move (to a position)',
    ['blocks.move'],
    (round) => blocks.move(round, BLOCK, { position: 1 }),
  ],
  [
    'blocks.move (to the end)',
    ['blocks.move-to-end'],
    (round) => blocks.move(round, BLOCK, { position: null }),
  ],
  [
    'blocks.copy',
    ['blocks.copy', 'blocks.copy-document'],
    (round) => blocks.copy(round, BLOCK, COPY),
  ],
  [
    'rows.insert',
    ['rows.insert'],
    (round) => rows.insert(round, BLOCK, { description: '' }, { sortKey: null }),
  ],
  [
    'rows.update',
    ['rows.update'],
    (round) => rows.update(round, ROW, { description: 'x' }, { sortKey: null, changed: true }),
  ],
  ['rows.delete', ['rows.delete'], (round) => rows.delete(round, ROW)],
  [
    'rows.move (within its block, to the end)',
    ['rows.move-to-end'],
    (round) => rows.move(round, ROW, { toParentId: null, position: null }),
  ],
  [
    'rows.move (to another block)',
    ['rows.move'],
    (round) => rows.move(round, ROW, { toParentId: 'b2', position: 1 }),
  ],
  [
    'rows.copy',
    ['rows.copy', 'rows.copy-document'],
    (round) => rows.copy(round, ROW, { ...COPY, toParentId: 'b2' }),
  ],
  [
    'columns.insert',
    ['columns.insert'],
    (round) => columns.insert(round, COLUMN, 6, { sortKey: null }),
  ],
  [
    'columns.resize',
    ['columns.resize'],
    (round) => columns.resize(round, COLUMN, 5, { sortKey: null }),
  ],
  [
    'columns.resize (a move)',
    ['columns.resize'],
    (round) => columns.resize(round, COLUMN, null, { sortKey: '1500' }),
  ],
  [
    'columns.replaceContents',
    ['columns.replace-contents'],
    (round) =>
      columns.replaceContents(round, COLUMN, [{ id: 'ct1', ...CONTENT_VALUES }, CONTENT_VALUES]),
  ],
  ['columns.delete', ['columns.delete'], (round) => columns.delete(round, COLUMN)],
  [
    'columns.move (to the end)',
    ['columns.move-to-end'],
    (round) => columns.move(round, COLUMN, { toParentId: 'r2', position: null }),
  ],
  [
    'columns.copy',
    ['columns.copy', 'columns.copy-document'],
    (round) => columns.copy(round, COLUMN, { ...COPY, toParentId: null }),
  ],
  [
    'contents.insert',
    ['contents.insert'],
    (round) => contents.insert(round, COLUMN, CONTENT_VALUES, { sortKey: null }),
  ],
  [
    'contents.update',
    ['contents.update'],
    (round) => contents.update(round, CONTENT, CONTENT_VALUES, { sortKey: null, changed: false }),
  ],
  ['contents.delete', ['contents.delete'], (round) => contents.delete(round, CONTENT)],
  [
    'contents.move (to the end)',
    ['contents.move-to-end'],
    (round) => contents.move(round, CONTENT, { toParentId: 'c2', position: null }),
  ],
  [
    'contents.copy',
    ['contents.copy', 'contents.copy-document'],
    (round) => contents.copy(round, CONTENT, { ...COPY, toParentId: 'c2' }),
  ],
  ['projects.retitle', ['projects.retitle'], (round) => projects.retitle(round, PROJECT, 'New')],
];

/** Reads made inside a write, before changing anything: they too find nothing behind a failed lock. */
const READS_UNDER_THE_LOCK: [string, string, (round: Round) => unknown][] = [
  ['blocks.findForWrite', 'blocks.find-for-write', (round) => blocks.findForWrite(round, BLOCK)],
  ['rows.findForWrite', 'rows.find-for-write', (round) => rows.findForWrite(round, ROW)],
  [
    'columns.findForWrite',
    'columns.find-for-write',
    (round) => columns.findForWrite(round, COLUMN),
  ],
  [
    'contents.findForWrite',
    'contents.find-for-write',
    (round) => contents.findForWrite(round, CONTENT),
  ],
];

/** The moves of each level, to the end and to a position, and the copies: what they are told. */
const MOVES = (['end', 'position'] as const).flatMap((to) => {
  const position = to === 'end' ? null : 1;
  return [
    ['block', to, (round: Round) => blocks.move(round, BLOCK, { position })],
    ['row', to, (round: Round) => rows.move(round, ROW, { toParentId: 'b2', position })],
    ['column', to, (round: Round) => columns.move(round, COLUMN, { toParentId: 'r2', position })],
    [
      'content',
      to,
      (round: Round) => contents.move(round, CONTENT, { toParentId: 'c2', position }),
    ],
  ] as const;
});
const COPIES = [
  [
    'block',
    ['blocks', 'rows', 'columns', 'contents'],
    (round: Round) => blocks.copy(round, BLOCK, COPY),
  ],
  [
    'row',
    ['rows', 'columns', 'contents'],
    (round: Round) => rows.copy(round, ROW, { ...COPY, toParentId: null }),
  ],
  [
    'column',
    ['columns', 'contents'],
    (round: Round) => columns.copy(round, COLUMN, { ...COPY, toParentId: null }),
  ],
  [
    'content',
    ['contents'],
    (round: Round) => contents.copy(round, CONTENT, { ...COPY, toParentId: null }),
  ],
] as const;

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

  it('a renumbering of a list is a tree write that changes nothing when the lock set no revision', async () => {
    let slots = 0;
    const connection = fakeConnection((statement) =>
      statement.name.endsWith('-slot') && slots++ === 0
        ? [{ stays: false, sort_key: null }]
        : [ANSWER],
    );
    await connection.run((round) =>
      order.keyAt(round, 'row', { projectId: 'p1', parentId: 'b1', position: 1, selfId: 'r1' }),
    );
    const renumber = connection.sent.find(
      ({ statement }) => statement.name === 'sibling-order.row-renumber',
    );
    expect(renumber?.values).toHaveLength(renumber?.statement.parameters.length ?? -1);
    expect(renumber?.statement.text).toContain(`${WRITE_REVISION} IS NOT NULL`);
    // It states its changes (each sibling in place), so its block's bookkeeping follows.
    expect(renumber?.statement.text).toContain('changed (id, old_parent, new_parent');
    expect(renumber?.statement.text).toContain('touched_block AS (');
  });

  it('the slot right after a sibling reads that sibling in its parent, within the project', async () => {
    const connection = fakeConnection(() => [{ stays: false, sort_key: '2500' }]);
    await connection.run((round) =>
      order.placed(
        round,
        'content',
        { projectId: 'p1', parentId: 'c1', afterId: 'ct1' },
        (key, next) => next.finish(() => key),
      ),
    );
    const [{ statement, values }] = connection.sent;
    expect(statement.name).toBe('sibling-order.content-slot-after');
    expect(values).toHaveLength(statement.parameters.length);
    expect(statement.text).toMatch(
      /o\.id = \$\d+::uuid AND o\.column_id = \$\d+ AND o\.project_id = \$\d+/,
    );
    expect(statement.text).not.toMatch(/\b(INSERT|UPDATE|DELETE)\b/);
  });

  it('a resize sets only the column’s revision, not its list revision (its contents list keeps its tag)', async () => {
    const { sent } = await recorded((round) => columns.resize(round, COLUMN, 5, { sortKey: null }));
    const text = sent[0].statement.text;
    const setColumns = text.slice(
      text.indexOf('UPDATE columns c SET'),
      text.indexOf('FROM target t'),
    );
    expect(setColumns).toContain('revision =');
    expect(setColumns).not.toContain('list_revision');
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
        expect(name).toBe(`${TREE_LEVELS[level].owner}.move-to-end`);
        expect(text).not.toContain('renumbered AS (');
        expect(parameters).not.toContain('position');
      } else {
        expect(name).toBe(`${TREE_LEVELS[level].owner}.move`);
        expect(parameters).toContain('position');
        // A renumbering of the list changes the others' sort keys alone.
        const renumbered = text.slice(text.indexOf('renumbered AS ('), text.indexOf('moved AS ('));
        expect(renumbered).toMatch(
          new RegExp(`UPDATE ${table} y SET sort_key = pl\\.top_key \\+ o\\.n \\* \\d+\\s+FROM`),
        );
      }
    });

    it('states one changed row with both parents, so that the ancestors of both follow', async () => {
      const { sent } = await recorded(move);
      expect(sent[0].statement.text).toContain(
        'changed (id, old_parent, new_parent, old_bytes, new_bytes) AS (SELECT t.id, t.parent_id, pl.parent_id, t.bytes, t.bytes',
      );
    });

    it('reports what the statement answers: its tag, its document, where it went, whether it moved', async () => {
      const { value } = await recorded(move);
      expect(value.get()).toEqual({
        revision: 5,
        json: '{}',
        destination: { id: 'c2', rowId: 'r2', blockId: 'b2' },
        moved: true,
        siblings: 2,
        treeBytes: 1000,
        ...(level === 'column' ? { size: 4, others: 0 } : {}),
      });
    });

    it('reports no destination when the parent asked for is not in the project', async () => {
      const { value } = await recorded(move, { ...ANSWER, parent_id: null, moved: false });
      expect(value.get()).toMatchObject({ destination: undefined, moved: false });
    });
  });

  describe.each(COPIES)('the copy of a %s', (level, tables, copy) => {
    it('copies the node and everything beneath it in one statement, then reads the copy by its id in the same round', async () => {
      const { sent, rounds } = await recorded(copy);
      expect(rounds).toHaveLength(1);
      const [copied, document] = sent;
      for (const table of tables) expect(copied.statement.text).toContain(`INSERT INTO ${table} `);
      expect(copied.params).toMatchObject({ copyId: 'n9', maxNodes: 20_000 });
      expect(document.statement.name).toBe(`${TREE_LEVELS[level].owner}.copy-document`);
      expect(document.params).toEqual({ projectId: 'p1', copyId: 'n9' });
      expect(document.statement.text).toMatch(/\.id = \$\d+ AND \w+\.project_id = \$\d+/);
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
  it('locks the account’s project and sets the revision the write creates, for this transaction only', async () => {
    const { sent, value } = await recorded(
      (round) => projects.lockForWrite(round, PROJECT, CHANGE),
      {
        revision: 7,
        title: 'Old',
        tree_bytes: '1000',
      },
    );
    expect(value.get()).toEqual({ revision: 7, title: 'Old', treeBytes: 1000 });
    expect(sent).toHaveLength(1);
    const [{ statement, params }] = sent;
    expect(statement.name).toBe('projects.lock');
    expect(params).toEqual({ ...PROJECT, ...CHANGE });
    // What the history records of the write, beside it, for the same transaction only.
    expect(statement.text).toContain(`set_config('layout.operation', $3, true)`);
    expect(statement.text).toMatch(/p\.owner_id = \$\d/);
    expect(statement.text).toContain('FOR NO KEY UPDATE');
    // set_config's third argument true: local to the transaction, gone at its end.
    expect(statement.text).toContain(`set_config('layout.revision', (p.revision + 1)::text, true)`);
    // WRITE_REVISION reads that very setting.
    expect(WRITE_REVISION).toContain(`current_setting('layout.revision', true)`);
  });

  it('answers undefined when the project is not the account’s', async () => {
    const { value } = await recorded(
      (round) => projects.lockForWrite(round, PROJECT, CHANGE),
      null,
    );
    expect(value.get()).toBeUndefined();
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
  const copy = (round: Round) => projects.copy(round, PROJECT, REQUEST);

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
    expect(text).toMatch(/p\.id = \$\d+ AND p\.owner_id = \$\d+/);
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
