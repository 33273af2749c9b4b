// Fakes and shared tables for the unit specs of the layout services and repositories
// (apps/api/src/layout/**/*.spec.ts): a fake lock and rounds for the services' units of work,
// a mocked NodesRepository, the levels of the tree as the specs name them, and a fake connection
// for the specs of what the TreeWriter and the repositories send. Under test/, so the build never
// ships it.
import { jest } from '@jest/globals';
import { type AssetNames, NamedAssets } from '../../apps/api/src/assets/asset-names';
import { DEFAULT_BLOCK_STYLE, DEFAULT_CONTENT_STYLE } from '@layout/contracts';
import { ResourceNotFoundError } from '../../apps/api/src/common/errors';
import { type IdempotencyRequest } from '../../apps/api/src/common/http/idempotency';
import { RequestConditions } from '../../apps/api/src/common/http/request-conditions';
import { type Database } from '../../apps/api/src/database/database';
import { type SqlSession } from '../../apps/api/src/database/sql-session';
import { bindParameters, type SqlStatement } from '../../apps/api/src/database/sql-statement';
import {
  Pending,
  type Round,
  type SendStatement,
  startWork,
  Step,
  type Work,
} from '../../apps/api/src/database/unit-of-work';
import { type TreeChange } from '../../apps/api/src/layout/layout.changes';
import {
  type BlockScope,
  type ColumnScope,
  type ContentScope,
  type ProjectScope,
  type RowScope,
} from '../../apps/api/src/layout/layout.scopes';
import { type LockedProject, type LockedRound } from '../../apps/api/src/layout/locked-round';
import { type NodesRepository } from '../../apps/api/src/layout/repositories/nodes.repository';
import { type TaggedDocument } from '../../apps/api/src/layout/repositories/sql/tagged-reads';
import { type ChildLevel } from '../../apps/api/src/layout/repositories/sql/tree-levels';
import { type Destination } from '../../apps/api/src/layout/repositories/written-node';

/** One mebibyte, for the 8 MiB tree limit. */
export const MiB = 1024 * 1024;

/** A content's data over the 256 KiB limit. */
export const OVERSIZED = { alt: 'x'.repeat(256 * 1024) };

/** The scope of project p1 of account acc-1. */
export const PROJECT: ProjectScope = { accountId: 'acc-1', projectId: 'p1' };
/** The scope of block b1 in PROJECT. */
export const BLOCK: BlockScope = { ...PROJECT, blockId: 'b1' };
/** The scope of row r1 in BLOCK. */
export const ROW: RowScope = { ...BLOCK, rowId: 'r1' };
/** The scope of column c1 in ROW. */
export const COLUMN: ColumnScope = { ...ROW, columnId: 'c1' };
/** The scope of content ct1 in COLUMN. */
export const CONTENT: ContentScope = { ...COLUMN, contentId: 'ct1' };

/** The pool the services read through (outside any write). */
export const DB = { name: 'the pool' } as unknown as Database;

/** Settlers of the fake answers of the round in progress (see `reply`). */
let unanswered: (() => void)[] = [];

/**
 * What a mocked repository answers within a fake write: a Pending that is filled in only once
 * the round that sent it is over, as a real statement's would be. So a service that reads an
 * answer while it is still sending (before its round's continuation) fails its test.
 */
export function reply<T>(value: T): Pending<T> {
  const pending = Pending.waiting<T>();
  unanswered.push(() => pending.settle({ status: 'fulfilled', value }));
  return pending;
}

/** Called as each round of a fake write starts, and once it has answered (see sentByRound). */
const roundStarts = jest.fn();
const roundAnswers = jest.fn();

/**
 * The round of every fake write: one object for every round, so tests can name it. Like a
 * round that TreeWriter makes, the rounds that follow it hold the lock too (they are TX again).
 */
export const TX: LockedRound = fakeRound();

function fakeRound(): LockedRound {
  const noStatements = () => {
    throw new Error('A service under unit test sends no statement itself: mock its repository');
  };
  const round: Pick<LockedRound, 'project' | 'rows' | 'row' | 'finish' | 'next' | 'andThen'> = {
    project: Pending.waiting<LockedProject>(),
    rows: noStatements,
    row: noStatements,
    finish: (answerOf) => Step.make({ kind: 'finish', answer: answerOf }),
    next: (next) => Step.make({ kind: 'next', next: () => next(TX) }),
    andThen: (step, more) => step.andThen((value) => more(value, TX)),
  };
  return round as LockedRound;
}

/**
 * A plain round behind a lock that is taken for granted: what the specs of a repository whose
 * writes take a LockedRound send them on (only TreeWriter makes a real one). Its next rounds
 * hold it too, as TreeWriter's do.
 */
export function lockedRound(round: Round, project: LockedProject = LOCKED): LockedRound {
  const locked: Pick<LockedRound, 'project' | 'rows' | 'row' | 'finish' | 'next' | 'andThen'> = {
    project: Pending.of(project),
    rows: (statement, params) => round.rows(statement, params),
    row: (statement, params) => round.row(statement, params),
    finish: (answer) => round.finish(answer),
    next: (next) => round.next((following) => next(lockedRound(following, project))),
    andThen: (step, more) =>
      step.andThen((value, following) => more(value, lockedRound(following, project))),
  };
  return locked as LockedRound;
}

/** The project as the write's lock finds it: at revision 7, so the write creates 8. */
export const LOCKED: LockedProject = {
  revision: 8,
  currentRevision: 7,
  title: 'Old',
  treeBytes: 1000,
};
/** The project as a lock that answers late finds it: at revision 12, so the write creates 13. */
export const LATE_LOCK: LockedProject = { ...LOCKED, revision: 13, currentRevision: 12 };

/** What the fake lock finds: the project, or nothing of the caller's (a 404). */
type LockOutcome = { project: LockedProject } | { missing: true };

/**
 * Runs `work` as TreeWriter does, without a database: its first round is sent (the mocked
 * repositories called) while the lock has not answered (`write.project` cannot be read yet);
 * then the lock's outcome goes first (a missing project is a 404), then each continuation,
 * round after round, each seeing the answers of the round before it.
 */
export function runWrite<T>(
  work: (write: LockedRound) => Step<T>,
  lock: LockOutcome = { project: LOCKED },
  afterFirstRound: () => void = () => undefined,
): Promise<T> {
  Object.assign(TX, { project: Pending.waiting<LockedProject>() });
  return runRounds(work, afterFirstRound, (step) => {
    TX.project.settle(
      'project' in lock
        ? { status: 'fulfilled', value: lock.project }
        : { status: 'rejected', reason: new ResourceNotFoundError('Project') },
    );
    return step.checkedFirst(() => TX.project.get());
  });
}

/**
 * Runs `work` as Database.transaction does, without a database and with no lock in front (a
 * project's create or copy): its first round is sent, `afterFirstRound` runs before anything
 * has answered, then each continuation, round after round, on TX.
 */
export function runTransaction<T>(
  work: Work<T>,
  afterFirstRound: () => void = () => undefined,
): Promise<T> {
  return runRounds(work as unknown as (write: LockedRound) => Step<T>, afterFirstRound, (s) => s);
}

/** The rounds of `work` on TX; `answered` puts what the first round's answers decide first. */
async function runRounds<T>(
  work: (write: LockedRound) => Step<T>,
  afterFirstRound: () => void,
  answered: (step: Step<T>) => Step<T>,
): Promise<T> {
  unanswered = [];
  roundStarts.mockClear();
  roundAnswers.mockClear();
  roundStarts();
  let step: Step<T>;
  try {
    step = work(TX);
  } catch (error) {
    step = TX.finish<T>(() => {
      throw error;
    });
  }
  afterFirstRound();
  for (const settle of unanswered.splice(0)) settle();
  roundAnswers();
  step = answered(step);
  // A tick, as a real round's answers take: a caller sees its promise pending meanwhile.
  await Promise.resolve();
  for (;;) {
    const { shape } = step;
    if (shape.kind === 'finish') return shape.answer();
    roundStarts();
    step = shape.next(TX);
    for (const settle of unanswered.splice(0)) settle();
    roundAnswers();
  }
}

/** A mock whose calls sentByRound can place: any jest mock. */
type Called = { mock: { invocationCallOrder: number[] } };

/**
 * What the last fake write (runWrite, runTransaction) sent in each of its rounds: the names of
 * the `mocks` (repository methods, each a statement or a few) called in each round, in the
 * order called. A call made once its round had answered (in a continuation that sends nothing
 * more, which a real round would refuse) is named `<name> after its round answered`. A round
 * that sent nothing (a continuation that failed first) made no round trip: it is left out.
 */
export function sentByRound(mocks: Record<string, Called>): string[][] {
  const starts = roundStarts.mock.invocationCallOrder;
  const answers = roundAnswers.mock.invocationCallOrder;
  const rounds: string[][] = starts.map(() => []);
  const calls = Object.entries(mocks)
    .flatMap(([name, mock]) => mock.mock.invocationCallOrder.map((order) => ({ name, order })))
    .sort((a, b) => a.order - b.order);
  for (const { name, order } of calls) {
    const round = starts.filter((start) => start < order).length;
    if (round === 0) continue; // a call of an earlier write
    const late = answers[round - 1] !== undefined && answers[round - 1] < order;
    rounds[round - 1].push(late ? `${name} after its round answered` : name);
  }
  return rounds.filter((names) => names.length > 0);
}

/** The TreeWriter, faked: `write(scope, work)` runs `work` as runWrite does, finding LOCKED. */
export type WriterMock = {
  write: jest.Mock<
    (
      scope: ProjectScope,
      change: TreeChange,
      work: (w: LockedRound) => Step<unknown>,
      idempotency?: IdempotencyRequest,
      status?: number,
    ) => Promise<unknown>
  >;
};
/** A fresh WriterMock. */
export const writerMock = (): WriterMock => ({
  write: jest.fn((_scope, _change, work) => runWrite(work, { project: LOCKED })),
});

/** Makes `writer`'s writes find the project as LOCKED with `project` over it. */
export function lockFinds(writer: WriterMock, project: Partial<LockedProject>): void {
  writer.write.mockImplementation((_scope, _change, work) =>
    runWrite(work, { project: { ...LOCKED, ...project } }),
  );
}

/** Makes `writer`'s writes find no project of the account's (the TreeWriter then answers 404). */
export function lockFindsNoProject(writer: WriterMock): void {
  writer.write.mockImplementation((_scope, _change, work) => runWrite(work, { missing: true }));
}

/** Lets every pending promise callback run. */
export const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * What `attempt` comes to, as a promise: its answer, or its failure whether it threw at once or
 * rejected (a refusal made before any database work may do either).
 */
export const outcomeOf = <T>(attempt: () => Promise<T>): Promise<T> =>
  new Promise<T>((resolve) => resolve(attempt()));

/** A repository's TaggedReads, mocked: the document with its revision, and the revision alone. */
export type ReadsMock<P> = {
  document: jest.Mock<(db: SqlSession, p: P) => Promise<TaggedDocument | undefined>>;
  documentAt: jest.Mock<
    (db: SqlSession, p: P, revision: number) => Promise<TaggedDocument | undefined>
  >;
  documentIn: jest.Mock<(round: Round, p: P) => Pending<TaggedDocument | undefined>>;
  revision: jest.Mock<(db: SqlSession, p: P) => Promise<number | undefined>>;
};
/** A fresh ReadsMock, answering nothing until a test says what. */
export const readsMock = <P>(): ReadsMock<P> => ({
  document: jest.fn(),
  documentAt: jest.fn(),
  documentIn: jest.fn(),
  revision: jest.fn(),
});

/** A mocked repository method: any arguments, an answer the test gives. */
type MethodMock = jest.Mock<(...args: any[]) => any>;

/**
 * NodesRepository, mocked: the reads of each level's node and list, and every write, each
 * answering nothing until a test says what (with `reply`, or `{ copied, json }` for a copy).
 */
export function nodesRepositoryMock() {
  const reads = () => ({
    block: readsMock<any>(),
    row: readsMock<any>(),
    column: readsMock<any>(),
    content: readsMock<any>(),
  });
  return {
    reads: { node: reads(), list: reads() },
    insert: jest.fn() as MethodMock,
    update: jest.fn() as MethodMock,
    updateEach: jest.fn() as MethodMock,
    delete: jest.fn() as MethodMock,
    place: jest.fn() as MethodMock,
    copy: jest.fn() as MethodMock,
    findColumnContents: jest.fn() as MethodMock,
    replaceContents: jest.fn() as MethodMock,
  } satisfies Record<Exclude<keyof NodesRepository, 'reads'>, MethodMock> & { reads: object };
}
export type NodesRepositoryMock = ReturnType<typeof nodesRepositoryMock>;

/**
 * The writes of a NodesRepositoryMock, by name, for sentByRound; `documentIn`: the read of a new
 * node's document within a write, at any level.
 */
export const nodeWritesOf = (nodes: NodesRepositoryMock) => ({
  insert: nodes.insert,
  update: nodes.update,
  updateEach: nodes.updateEach,
  delete: nodes.delete,
  place: nodes.place,
  copy: nodes.copy,
  findColumnContents: nodes.findColumnContents,
  replaceContents: nodes.replaceContents,
  documentIn: {
    mock: {
      invocationCallOrder: Object.values(nodes.reads.node).flatMap(
        (reads) => reads.documentIn.mock.invocationCallOrder,
      ),
    },
  },
});

/** A request with `If-Match: <tag>`. */
export const ifMatch = (tag: string) => RequestConditions.fromHeaders({ 'if-match': tag });
/** A request with `If-None-Match: <tag>`. */
export const ifNoneMatch = (tag: string) => RequestConditions.fromHeaders({ 'if-none-match': tag });

/** Asserts that `answer` fails with ResourceNotFoundError("<resource> not found"), a 404. */
export async function expectNotFound(answer: Promise<unknown>, resource: string): Promise<void> {
  await expect(answer).rejects.toMatchObject({
    constructor: ResourceNotFoundError,
    resource,
    message: `${resource} not found`,
  });
}

/** A request sent with `Idempotency-Key`, as the controllers pass it on. */
export const IDEMPOTENT: IdempotencyRequest = { key: 'key-1', fingerprint: 'fingerprint-1' };

/** A parent of the project other than the node's own: an id of the shape the API gives. */
export const TARGET_ID = '0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a83';

/** Parent ids of the wrong shape, as a body may send them: they name nothing. */
export const MALFORMED_IDS = [
  'c2',
  TARGET_ID.slice(1),
  `${TARGET_ID}'--`,
  TARGET_ID.replace(/-/g, ''),
];

/** Any id a write makes for a new node: a UUIDv7. */
export const A_NEW_ID = expect.stringMatching(
  /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
);

/**
 * A level of the tree as the specs of the node service and its writes address it: its names,
 * scopes, paths, the parents a move or a copy reports, and what its own rules need.
 */
export interface LevelCase {
  level: ChildLevel;
  /** The node's resource name ('Content') and its parent's ('Column'), as a 404 says them. */
  node: string;
  parent: string;
  /** The path parameter of its id, and the body member that names another parent (none: a block). */
  idParam: 'blockId' | 'rowId' | 'columnId' | 'contentId';
  parentMember: 'blockId' | 'rowId' | 'columnId' | undefined;
  /** The node's scope and its parent's (where it is created, its list read). */
  scope: any;
  parentScope: any;
  /** The ids of the node and of its parent on the request's path. */
  nodeId: string;
  ownParentId: string;
  /** The node's scope with another id (a copy's), and under a parent with another id. */
  scopeWithId: (id: string) => any;
  scopeUnder: (parentId: string) => any;
  /** The node's own parent, and the parent TARGET_ID, as a placement or a copy reports them. */
  own: Destination;
  target: Destination;
  /** The path of node `id` in its own parent and in TARGET_ID; the path of its list. */
  pathIn: { own: (id: string) => string; target: (id: string) => string };
  listPath: string;
  /** A create's body, and the values its insert is told. */
  createBody: any;
  values: object;
  /** An update's body that changes a member, and what the update statement is told for it. */
  updateBody: any;
  changes: object;
  /** The count its parent holds at most, when that is its rule (a column's is the row's width). */
  max: number | undefined;
  /** What the statements also report at this level (a column's size and row width). */
  reported: object;
  /** A report that breaks this level's own rule in its parent (the count, or the row width). */
  full: object;
}

/** A block: in project p1, moved and copied among the project's blocks only. */
const BLOCK_CASE: LevelCase = {
  level: 'block',
  node: 'Block',
  parent: 'Project',
  idParam: 'blockId',
  parentMember: undefined,
  scope: BLOCK,
  parentScope: PROJECT,
  nodeId: 'b1',
  ownParentId: 'p1',
  scopeWithId: (blockId) => ({ ...BLOCK, blockId }),
  scopeUnder: () => BLOCK,
  own: { id: 'p1', rowId: null, blockId: null },
  target: { id: 'p1', rowId: null, blockId: null },
  pathIn: {
    own: (id) => `/projects/p1/blocks/${id}`,
    target: (id) => `/projects/p1/blocks/${id}`,
  },
  listPath: '/projects/p1/blocks',
  createBody: { description: 'Intro' },
  values: { description: 'Intro', style: { ...DEFAULT_BLOCK_STYLE } },
  updateBody: { description: 'New' },
  changes: { description: 'New', style: null },
  max: 500,
  reported: {},
  full: { siblings: 501 },
};

/** A row: in block b1, moved and copied within it or into the block TARGET_ID. */
const ROW_CASE: LevelCase = {
  level: 'row',
  node: 'Row',
  parent: 'Block',
  idParam: 'rowId',
  parentMember: 'blockId',
  scope: ROW,
  parentScope: BLOCK,
  nodeId: 'r1',
  ownParentId: 'b1',
  scopeWithId: (rowId) => ({ ...ROW, rowId }),
  scopeUnder: (blockId) => ({ ...ROW, blockId }),
  own: { id: 'b1', rowId: null, blockId: null },
  target: { id: TARGET_ID, rowId: null, blockId: null },
  pathIn: {
    own: (id) => `/projects/p1/blocks/b1/rows/${id}`,
    target: (id) => `/projects/p1/blocks/${TARGET_ID}/rows/${id}`,
  },
  listPath: '/projects/p1/blocks/b1/rows',
  createBody: {},
  values: { description: '' },
  updateBody: { description: 'New' },
  changes: { description: 'New' },
  max: 500,
  reported: {},
  full: { siblings: 501 },
};

/** A column of size 4: in row r1, moved and copied within it or into the row TARGET_ID of b2. */
const COLUMN_CASE: LevelCase = {
  level: 'column',
  node: 'Column',
  parent: 'Row',
  idParam: 'columnId',
  parentMember: 'rowId',
  scope: COLUMN,
  parentScope: ROW,
  nodeId: 'c1',
  ownParentId: 'r1',
  scopeWithId: (columnId) => ({ ...COLUMN, columnId }),
  scopeUnder: (rowId) => ({ ...COLUMN, rowId }),
  own: { id: 'r1', rowId: null, blockId: 'b1' },
  target: { id: TARGET_ID, rowId: null, blockId: 'b2' },
  pathIn: {
    own: (id) => `/projects/p1/blocks/b1/rows/r1/columns/${id}`,
    target: (id) => `/projects/p1/blocks/b2/rows/${TARGET_ID}/columns/${id}`,
  },
  listPath: '/projects/p1/blocks/b1/rows/r1/columns',
  createBody: { size: 4 },
  values: { size: 4 },
  updateBody: { size: 5 },
  changes: { size: 5 },
  max: undefined,
  reported: { size: 4, others: 6 },
  full: { size: 4, others: 10 },
};

/** A content: in column c1, moved and copied within it or into the column TARGET_ID of r2. */
const CONTENT_CASE: LevelCase = {
  level: 'content',
  node: 'Content',
  parent: 'Column',
  idParam: 'contentId',
  parentMember: 'columnId',
  scope: CONTENT,
  parentScope: COLUMN,
  nodeId: 'ct1',
  ownParentId: 'c1',
  scopeWithId: (contentId) => ({ ...CONTENT, contentId }),
  scopeUnder: (columnId) => ({ ...CONTENT, columnId }),
  own: { id: 'c1', rowId: 'r1', blockId: 'b1' },
  target: { id: TARGET_ID, rowId: 'r2', blockId: 'b2' },
  pathIn: {
    own: (id) => `/projects/p1/blocks/b1/rows/r1/columns/c1/contents/${id}`,
    target: (id) => `/projects/p1/blocks/b2/rows/r2/columns/${TARGET_ID}/contents/${id}`,
  },
  listPath: '/projects/p1/blocks/b1/rows/r1/columns/c1/contents',
  createBody: { type: 'empty' },
  values: { type: 'empty', style: { ...DEFAULT_CONTENT_STYLE }, data: {} },
  updateBody: { type: 'quote' },
  changes: { type: 'quote' },
  max: 1000,
  reported: {},
  full: { siblings: 1001 },
};

/** Every level of the tree beneath a project, top down. */
export const LEVEL_CASES: readonly LevelCase[] = [BLOCK_CASE, ROW_CASE, COLUMN_CASE, CONTENT_CASE];
/** The levels whose nodes may go to another parent (a block's parent is its project). */
export const REPARENTED_CASES: readonly LevelCase[] = [ROW_CASE, COLUMN_CASE, CONTENT_CASE];
/** The levels whose parent keeps a count (a column's row keeps a width instead). */
export const COUNTED_CASES: readonly LevelCase[] = [BLOCK_CASE, ROW_CASE, CONTENT_CASE];

/**
 * What a placement reports for node `nodeId` placed into `destination`: its tag r5 before it,
 * moved, 3 children there, the tree at 1200 bytes after it; `reported` adds the level's own.
 */
export const movedInto = <R extends object = object>(
  nodeId: string,
  destination: Destination,
  reported?: R,
) => ({
  revision: 5,
  json: `{"_id":"${nodeId}"}`,
  destination,
  moved: true,
  siblings: 3,
  treeBytes: 1200,
  ...(reported as R),
});

/**
 * What a copy statement reports for a copy into `destination`: the original's tag r5, 4 nodes
 * made, the tree from 1000 to 1200 bytes, 3 children there; `reported` adds the level's own.
 */
export const copiedInto = <R extends object = object>(destination: Destination, reported?: R) => ({
  revision: 5,
  destination,
  nodes: 4,
  treeBefore: 1000,
  treeAfter: 1200,
  siblings: 3,
  copied: true,
  ...(reported as R),
});

/** What a fake connection answers one statement with: its rows, a failure, or rows to come. */
export type FakeAnswer = readonly unknown[] | Error | Promise<readonly unknown[]>;

/** One statement a fake connection was sent, bound as the driver binds it. */
export interface SentStatement {
  statement: SqlStatement<object, unknown>;
  params: object;
  values: unknown[];
}

/** Answers by statement name; a statement without one fails (the test then fails with its name). */
export const byName =
  (answers: Record<string, FakeAnswer>) =>
  (statement: SqlStatement<object, unknown>): FakeAnswer =>
    answers[statement.name] ??
    new Error(`The fake connection holds no answer for ${statement.name}`);

/**
 * A connection for units of work without a database (for the TreeWriter and the repositories'
 * statements): each statement is bound as the driver binds it (a missing value fails), recorded
 * with its round, and answered with `answerOf(statement, params)` once every statement of its
 * round has been sent, as a real round's answers come. `run` runs a work on it (startWork).
 */
export function fakeConnection(
  answerOf: (statement: SqlStatement<object, unknown>, params: object) => FakeAnswer,
) {
  const sent: SentStatement[] = [];
  /** The names of the statements of each round, in the order sent. */
  const rounds: string[][] = [];
  let open: string[] | undefined;
  const send: SendStatement = <P extends object, R>(statement: SqlStatement<P, R>, params: P) => {
    const values = bindParameters(statement, params);
    const answer = answerOf(statement as SqlStatement<object, unknown>, params);
    if (open === undefined) rounds.push((open = []));
    open.push(statement.name);
    sent.push({ statement: statement as SqlStatement<object, unknown>, params, values });
    return new Promise<R[]>((resolve, reject) =>
      setImmediate(() => {
        // Every statement of the round was sent in the same turn; whatever comes next is another.
        open = undefined;
        if (answer instanceof Error) reject(answer);
        else void Promise.resolve(answer).then((rows) => resolve(rows as R[]), reject);
      }),
    );
  };
  return {
    send,
    sent,
    rounds,
    run: <T>(work: Work<T>): Promise<T> => startWork(work, send, () => undefined).answer,
  };
}

/** AssetNames that lets every body through (the asset checks have their own e2e tests). */
export const ANY_ASSETS = {
  nameable: () => Promise.resolve(NamedAssets.none),
  held: (_named: NamedAssets, work: unknown) => work,
} as unknown as AssetNames;
