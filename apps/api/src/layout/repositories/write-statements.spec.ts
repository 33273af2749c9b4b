import { jest } from '@jest/globals';
import { DEFAULT_BLOCK_STYLE, DEFAULT_CONTENT_STYLE } from '@layout/contracts';
import { type SqlSession } from '../../database/sql-session';
import { bindParameters, type SqlStatement } from '../../database/sql-statement';
import {
  type BlockScope,
  type ColumnScope,
  type ContentScope,
  type ProjectScope,
  type RowScope,
} from '../layout.scopes';
import { BlocksRepository } from './blocks.repository';
import { ColumnsRepository } from './columns.repository';
import { ContentsRepository } from './contents.repository';
import { ProjectsRepository } from './projects.repository';
import { RowsRepository } from './rows.repository';
import { SiblingOrderRepository } from './sibling-order.repository';
import { WRITE_REVISION } from './sql/paths.sql';

// The write statements of the tree take their revision from the transaction-local setting that
// locking the project sets (WRITE_REVISION), not from a parameter: they are sent behind the lock
// without waiting for its answer, and change nothing when it found no project of the caller's.

type Statement = SqlStatement<object, unknown>;
type Sent = { statement: Statement; params: object; values: unknown[] };

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
};

/**
 * A transaction that binds every statement as the driver would (so a missing value throws) and
 * answers `answer` (null: no row).
 */
function recordingTx(answer: object | null = ANSWER) {
  const sent: Sent[] = [];
  const send = (statement: Statement, params: object) => {
    sent.push({ statement, params, values: bindParameters(statement, params) });
  };
  const tx = {
    row: jest.fn((statement: Statement, params: object) => {
      send(statement, params);
      return Promise.resolve(answer ?? undefined);
    }),
    rows: jest.fn((statement: Statement, params: object) => {
      send(statement, params);
      return Promise.resolve(answer ? [answer] : []);
    }),
  } as unknown as SqlSession;
  return { tx, sent };
}

const blocks = new BlocksRepository();
const rows = new RowsRepository();
const columns = new ColumnsRepository();
const contents = new ContentsRepository();
const projects = new ProjectsRepository();
const order = new SiblingOrderRepository();

const BLOCK_VALUES = { description: 'Intro', style: { ...DEFAULT_BLOCK_STYLE } };
const CONTENT_VALUES = { type: 'text' as const, style: { ...DEFAULT_CONTENT_STYLE }, data: {} };

const WRITES: [string, string[], (tx: SqlSession) => Promise<unknown>][] = [
  [
    'blocks.insert',
    ['block.insert'],
    (tx) => blocks.insert(tx, PROJECT, BLOCK_VALUES, { sortKey: null }),
  ],
  [
    'blocks.update',
    ['block.update'],
    (tx) => blocks.update(tx, BLOCK, BLOCK_VALUES, { sortKey: '1500', changed: true }),
  ],
  ['blocks.delete', ['block.delete'], (tx) => blocks.delete(tx, BLOCK)],
  [
    'rows.insert',
    ['row.insert'],
    (tx) => rows.insert(tx, BLOCK, { description: '' }, { sortKey: null }),
  ],
  [
    'rows.update',
    ['row.update'],
    (tx) => rows.update(tx, ROW, { description: 'x' }, { sortKey: null, changed: true }),
  ],
  ['rows.delete', ['row.delete'], (tx) => rows.delete(tx, ROW)],
  ['columns.insert', ['column.insert'], (tx) => columns.insert(tx, ROW, 6, { sortKey: null })],
  ['columns.resize', ['column.resize'], (tx) => columns.resize(tx, COLUMN, 5, { sortKey: null })],
  [
    'columns.resize (a move)',
    ['column.resize'],
    (tx) => columns.resize(tx, COLUMN, null, { sortKey: '1500' }),
  ],
  [
    'columns.replaceContents',
    ['column.replace-contents', 'column.refresh'],
    (tx) =>
      columns.replaceContents(tx, COLUMN, [{ id: 'ct1', ...CONTENT_VALUES }, CONTENT_VALUES], {
        sortKey: null,
        size: 4,
      }),
  ],
  ['columns.delete', ['column.delete'], (tx) => columns.delete(tx, COLUMN)],
  [
    'contents.insert',
    ['content.insert'],
    (tx) => contents.insert(tx, COLUMN, CONTENT_VALUES, { sortKey: null }),
  ],
  [
    'contents.update',
    ['content.update'],
    (tx) => contents.update(tx, CONTENT, CONTENT_VALUES, { sortKey: null, changed: false }),
  ],
  ['contents.delete', ['content.delete'], (tx) => contents.delete(tx, CONTENT)],
  ['projects.retitle', ['project.retitle'], (tx) => projects.retitle(tx, PROJECT, 'New')],
];

/** Reads made inside a write, before changing anything: they too find nothing behind a failed lock. */
const READS_UNDER_THE_LOCK: [string, string, (tx: SqlSession) => Promise<unknown>][] = [
  ['blocks.findForWrite', 'block.find-for-write', (tx) => blocks.findForWrite(tx, BLOCK)],
  ['rows.findForWrite', 'row.find-for-write', (tx) => rows.findForWrite(tx, ROW)],
  ['columns.findForWrite', 'column.find-for-write', (tx) => columns.findForWrite(tx, COLUMN)],
  ['contents.findForWrite', 'content.find-for-write', (tx) => contents.findForWrite(tx, CONTENT)],
];

describe('the write statements of the tree', () => {
  describe.each(WRITES)('%s', (_method, names, write) => {
    it('sends its statements with a value for each of their parameters', async () => {
      const { tx, sent } = recordingTx();
      await write(tx);
      expect(sent.map(({ statement }) => statement.name)).toEqual(names);
      for (const { statement, values } of sent) {
        expect(values).toHaveLength(statement.parameters.length);
      }
    });

    it('is told no revision: it takes the one the lock set in the transaction', async () => {
      const { tx, sent } = recordingTx();
      await write(tx);
      for (const { statement, params } of sent) {
        expect(statement.parameters).not.toContain('revision');
        expect(params).not.toHaveProperty('revision');
        expect(statement.text).toContain(WRITE_REVISION);
      }
    });

    it('changes nothing when the lock set no revision (no project of the caller’s)', async () => {
      const { tx, sent } = recordingTx();
      await write(tx);
      for (const { statement } of sent) {
        expect(statement.text).toContain(`${WRITE_REVISION} IS NOT NULL`);
      }
    });
  });

  it.each(READS_UNDER_THE_LOCK)(
    '%s finds nothing when the lock set no revision',
    async (_method, name, read) => {
      const { tx, sent } = recordingTx();
      await read(tx);
      expect(sent.map(({ statement }) => statement.name)).toEqual([name]);
      expect(sent[0].statement.text).toContain(`${WRITE_REVISION} IS NOT NULL`);
    },
  );

  it('a renumbering of a list changes nothing when the lock set no revision', async () => {
    const { tx, sent } = recordingTx();
    const row = tx.row as jest.Mock<(s: Statement, p: object) => Promise<unknown>>;
    row.mockImplementationOnce((statement, params) => {
      sent.push({ statement, params, values: bindParameters(statement, params) });
      return Promise.resolve({ stays: false, sort_key: null });
    });
    await order.keyAt(tx, 'row', { projectId: 'p1', parentId: 'b1', position: 1, selfId: 'r1' });
    const renumber = sent.find(({ statement }) => statement.name === 'row.renumber');
    expect(renumber?.statement.text).toContain(`${WRITE_REVISION} IS NOT NULL`);
  });

  it('a resize sets only the column’s revision, not its list revision (its contents list keeps its tag)', async () => {
    const { tx, sent } = recordingTx();
    await columns.resize(tx, COLUMN, 5, { sortKey: null });
    const text = sent[0].statement.text;
    const setColumns = text.slice(
      text.indexOf('UPDATE columns c SET'),
      text.indexOf('FROM target t'),
    );
    expect(setColumns).toContain('revision =');
    expect(setColumns).not.toContain('list_revision');
  });
});

describe('ProjectsRepository.lockForWrite', () => {
  it('locks the account’s project and sets the revision the write creates, for this transaction only', async () => {
    const { tx, sent } = recordingTx({ revision: 7, title: 'Old', tree_bytes: '1000' });
    await expect(projects.lockForWrite(tx, PROJECT)).resolves.toEqual({
      revision: 7,
      title: 'Old',
      treeBytes: 1000,
    });
    expect(sent).toHaveLength(1);
    const [{ statement, params }] = sent;
    expect(statement.name).toBe('project.lock');
    expect(params).toEqual(PROJECT);
    expect(statement.text).toMatch(/p\.owner_id = \$\d/);
    expect(statement.text).toContain('FOR NO KEY UPDATE');
    // set_config's third argument true: local to the transaction, gone at its end.
    expect(statement.text).toContain(`set_config('layout.revision', (p.revision + 1)::text, true)`);
    // WRITE_REVISION reads that very setting.
    expect(WRITE_REVISION).toContain(`current_setting('layout.revision', true)`);
  });

  it('answers undefined when the project is not the account’s', async () => {
    const { tx } = recordingTx(null);
    await expect(projects.lockForWrite(tx, PROJECT)).resolves.toBeUndefined();
  });
});
