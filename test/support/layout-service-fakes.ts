// Fakes and shared rules for the unit specs of the layout services
// (apps/api/src/layout/services/*.service.spec.ts), and a fake connection for the specs of what
// the TreeWriter and the repositories send. Under test/, so the build never ships it.
import { type TreeChange } from '../../apps/api/src/layout/layout.changes';
import { jest } from '@jest/globals';
import {
  LimitExceededError,
  PreconditionFailedError,
  ResourceNotFoundError,
} from '../../apps/api/src/common/errors';
import { type IdempotencyRequest } from '../../apps/api/src/common/http/idempotency';
import { RequestConditions } from '../../apps/api/src/common/http/request-conditions';
import { type Representation } from '../../apps/api/src/common/http/representation';
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
import {
  type BlockScope,
  type ColumnScope,
  type ContentScope,
  type ProjectScope,
  type RowScope,
} from '../../apps/api/src/layout/layout.scopes';
import { type SiblingOrderRepository } from '../../apps/api/src/layout/repositories/sibling-order.repository';
import { type TaggedDocument } from '../../apps/api/src/layout/repositories/sql/tagged-reads';
import { type ChildLevel } from '../../apps/api/src/layout/repositories/sql/tree-levels';
import { type Destination } from '../../apps/api/src/layout/repositories/written-node';
import { CREATED } from '../../apps/api/src/layout/services/answer-once';
import { type LockedProject, type TreeWrite } from '../../apps/api/src/layout/services/tree-writer';

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

/** The round of every fake write: one object for every round, so tests can name it. */
export const TX = fakeRound();

function fakeRound(): TreeWrite {
  const noStatements = () => {
    throw new Error('A service under unit test sends no statement itself: mock its repository');
  };
  return {
    project: Pending.waiting<LockedProject>(),
    rows: noStatements,
    row: noStatements,
    finish: (answerOf) => Step.make({ kind: 'finish', answer: answerOf }),
    next: (next) => Step.make({ kind: 'next', next }),
  };
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
  work: (write: TreeWrite) => Step<T>,
  lock: LockOutcome,
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
  return runRounds(work, afterFirstRound, (step) => step);
}

/** The rounds of `work` on TX; `answered` puts what the first round's answers decide first. */
async function runRounds<T>(
  work: (write: TreeWrite) => Step<T>,
  afterFirstRound: () => void,
  answered: (step: Step<T>) => Step<T>,
): Promise<T> {
  unanswered = [];
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
  step = answered(step);
  // A tick, as a real round's answers take: a caller sees its promise pending meanwhile.
  await Promise.resolve();
  for (;;) {
    const { shape } = step;
    if (shape.kind === 'finish') return shape.answer();
    step = shape.next(TX);
    for (const settle of unanswered.splice(0)) settle();
  }
}

/** The TreeWriter, faked: `write(scope, work)` runs `work` as runWrite does, finding LOCKED. */
export type WriterMock = {
  write: jest.Mock<
    (
      scope: ProjectScope,
      change: TreeChange,
      work: (w: TreeWrite) => Step<unknown>,
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

/**
 * Makes `writer`'s writes find the project as `project`, and calls `whileSending` once the work
 * has sent its first round and before the lock has answered.
 */
export function duringFirstRound(
  writer: WriterMock,
  whileSending: () => void,
  project: LockedProject = LOCKED,
): void {
  writer.write.mockImplementationOnce((_scope, _change, work) =>
    runWrite(work, { project }, whileSending),
  );
}

/** Lets every pending promise callback run. */
export const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * SiblingOrderRepository.placed, faked as the real one answers: a place asked for (a position,
 * or right after a sibling) is the key '1500', in a round of its own; none is null, at once.
 */
export const placedMock = () =>
  jest.fn<SiblingOrderRepository['placed']>((round, _level, where, then) => {
    if (where.position === undefined && where.afterId === undefined) return then(null, round);
    return round.next((next) => then('1500', next));
  });

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

/** What describeNodeReads reads through, given per test: the service and its two ReadsMocks. */
export interface NodeReads<S, L> {
  service: {
    retrieve(scope: S, conditions: RequestConditions): Promise<Representation<unknown>>;
    list(scope: L, conditions: RequestConditions): Promise<Representation<unknown>>;
  };
  node: ReadsMock<S>;
  list: ReadsMock<L>;
}

/** Registers `reads`: the conditional reads of a node (tag "r<n>") and its parent's list ("l<n>"). */
export function describeNodeReads<S extends object, L extends object>(
  names: { node: string; parent: string },
  scopes: { node: S; parent: L },
  subject: () => NodeReads<S, L>,
): void {
  const NODE = { revision: 5, json: '{"_id":"n1"}' };
  const LIST = { revision: 6, json: '[{"_id":"n1"}]' };
  const node = names.node.toLowerCase();
  const parent = names.parent.toLowerCase();

  describe('reads', () => {
    it('retrieve without If-None-Match reads the document once (never the revision alone), tagged "r<n>"', async () => {
      const { service, node: reads } = subject();
      reads.document.mockResolvedValue(NODE);
      const answer = await service.retrieve(scopes.node, RequestConditions.NONE);
      expect(reads.document).toHaveBeenCalledTimes(1);
      expect(reads.document).toHaveBeenCalledWith(DB, scopes.node);
      expect(reads.revision).not.toHaveBeenCalled();
      expect(answer.notModified).toBe(false);
      expect(answer.body?.text).toBe(NODE.json);
      expect(answer.headers).toEqual({ etag: '"r5"' });
    });

    it('retrieve answers 304 from the revision alone when If-None-Match names the current tag, and reads the document at that revision on an old one', async () => {
      const { service, node: reads } = subject();
      reads.revision.mockResolvedValue(5);
      for (const tag of ['"r5"', 'W/"r5"', '"r4", "r5"']) {
        const answer = await service.retrieve(scopes.node, ifNoneMatch(tag));
        expect(answer.notModified).toBe(true);
        expect(answer.body).toBeUndefined();
        expect(answer.headers).toEqual({ etag: '"r5"' });
      }
      expect(reads.revision).toHaveBeenCalledWith(DB, scopes.node);
      expect(reads.document).not.toHaveBeenCalled();
      expect(reads.documentAt).not.toHaveBeenCalled();

      // The revision it found names the document (kept bytes, when the reads keep some).
      reads.documentAt.mockResolvedValue(NODE);
      const stale = await service.retrieve(scopes.node, ifNoneMatch('"r4"'));
      expect(stale.notModified).toBe(false);
      expect(stale.body?.text).toBe(NODE.json);
      expect(stale.headers).toEqual({ etag: '"r5"' });
      expect(reads.documentAt).toHaveBeenCalledTimes(1);
      expect(reads.documentAt).toHaveBeenCalledWith(DB, scopes.node, 5);
      expect(reads.document).not.toHaveBeenCalled();
    });

    it('list is tagged "l<n>": 304 from the revision alone on the current tag or *, read again on an old one', async () => {
      const { service, list: reads } = subject();
      reads.document.mockResolvedValue(LIST);
      const full = await service.list(scopes.parent, RequestConditions.NONE);
      expect(reads.document).toHaveBeenCalledWith(DB, scopes.parent);
      expect(reads.revision).not.toHaveBeenCalled();
      expect(full.body?.text).toBe(LIST.json);
      expect(full.headers).toEqual({ etag: '"l6"' });

      reads.document.mockClear();
      reads.revision.mockResolvedValue(6);
      for (const tag of ['"l6"', '*']) {
        const cached = await service.list(scopes.parent, ifNoneMatch(tag));
        expect(cached.notModified).toBe(true);
        expect(cached.headers).toEqual({ etag: '"l6"' });
      }
      expect(reads.revision).toHaveBeenCalledWith(DB, scopes.parent);
      expect(reads.document).not.toHaveBeenCalled();

      reads.documentAt.mockResolvedValue(LIST);
      const stale = await service.list(scopes.parent, ifNoneMatch('"l5"'));
      expect(stale.notModified).toBe(false);
      expect(stale.headers).toEqual({ etag: '"l6"' });
      expect(reads.documentAt).toHaveBeenCalledWith(DB, scopes.parent, 6);
      expect(reads.document).not.toHaveBeenCalled();
    });

    it(`a missing ${node} or ${parent} is ResourceNotFoundError, with or without If-None-Match`, async () => {
      const { service, node: nodeReads, list: listReads } = subject();
      for (const reads of [nodeReads, listReads]) {
        reads.document.mockResolvedValue(undefined);
        reads.documentAt.mockResolvedValue(undefined);
        reads.revision.mockResolvedValue(undefined);
      }
      for (const conditions of [RequestConditions.NONE, ifNoneMatch('*')]) {
        await expectNotFound(service.retrieve(scopes.node, conditions), names.node);
        await expectNotFound(service.list(scopes.parent, conditions), names.parent);
      }
    });
  });
}

/** What describeNodeDelete deletes through, given per test: the service, its delete, the writer. */
export interface NodeDelete<S> {
  service: { delete(scope: S, conditions: RequestConditions): Promise<Representation<never>> };
  /** The repository's delete: answers the deleted node's revision, or undefined for none. */
  remove: jest.Mock<(round: Round, scope: S) => Pending<number | undefined>>;
  writer: WriterMock;
}

/** Registers `delete`: deleting a node, its If-Match checked with the deleted node's tag. */
export function describeNodeDelete<S extends object>(
  name: string,
  scope: S,
  subject: () => NodeDelete<S>,
): void {
  const node = name.toLowerCase();

  describe('delete', () => {
    it('deletes at revision 8 and answers no body with Project-Revision 8', async () => {
      const { service, remove } = subject();
      remove.mockImplementation(() => reply(5));
      const deleted = await service.delete(scope, ifMatch('"r5"'));
      expect(remove).toHaveBeenCalledWith(TX, scope);
      expect(deleted.body).toBeUndefined();
      expect(deleted.notModified).toBe(false);
      expect(deleted.headers).toEqual({ projectRevision: 8 });
    });

    it('sends the delete in the lock’s round, then answers at the revision the lock reports', async () => {
      const { service, remove, writer } = subject();
      remove.mockImplementation(() => reply(5));
      duringFirstRound(writer, () => expect(remove).toHaveBeenCalledWith(TX, scope), LATE_LOCK);
      await expect(service.delete(scope, ifMatch('"r5"'))).resolves.toMatchObject({
        headers: { projectRevision: 13 },
      });
    });

    it(`fails with the deleted ${node}’s tag when If-Match names another (the write rolls back)`, async () => {
      const { service, remove, writer } = subject();
      remove.mockImplementation(() => reply(5));
      // An older tag, the project's current and next revisions, and the weak form of its own.
      const others = ['"r4"', '"r7"', '"r8"', 'W/"r5"'];
      for (const tag of others) {
        await expect(service.delete(scope, ifMatch(tag))).rejects.toMatchObject({
          constructor: PreconditionFailedError,
          currentTag: '"r5"',
        });
      }
      expect(writer.write.mock.results).toHaveLength(others.length);
      for (const { value } of writer.write.mock.results) {
        await expect(value).rejects.toBeInstanceOf(PreconditionFailedError);
      }
    });

    it(`a missing ${node} is ResourceNotFoundError, whatever If-Match says`, async () => {
      const { service, remove } = subject();
      remove.mockImplementation(() => reply(undefined));
      for (const conditions of [RequestConditions.NONE, ifMatch('*'), ifMatch('"r5"')]) {
        await expectNotFound(service.delete(scope, conditions), name);
      }
    });

    it(`another account’s project is ResourceNotFoundError("Project"), before the ${node}’s rules`, async () => {
      const { service, remove, writer } = subject();
      remove.mockImplementation(() => reply(undefined));
      lockFindsNoProject(writer);
      await expectNotFound(service.delete(scope, ifMatch('"r1"')), 'Project');
    });
  });
}

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

/** What a move or a copy of a node of one level is about: names, ids, parents and paths. */
export interface NodeMoveRules<S> {
  /** The node's resource name ('Content') and its parent's ('Column'). */
  node: string;
  parent: string;
  /** The level as SiblingOrderRepository names it, and the body member naming the parent. */
  level: ChildLevel;
  parentMember: string;
  /** The node's scope, and the ids in it of its parent and of itself. */
  scope: S;
  ownParentId: string;
  nodeId: string;
  /** The scope of the node under a parent with another id (a UUID, which a body may name). */
  scopeUnder: (parentId: string) => S;
  /** The node's own parent, and the parent TARGET_ID, as a move or copy statement reports them. */
  own: Destination;
  target: Destination;
  /** The path of node `id` in its own parent and in TARGET_ID. */
  pathIn: { own: (id: string) => string; target: (id: string) => string };
  /** What the statements also report at this level (a column's size and row width). */
  reported?: object;
  /** A report that breaks this level's own limit on its target (the count, or the row width). */
  full: object;
}

/** What describeNodeMove moves through, given per test: the service, its mocks, the writer. */
export interface NodeMove<S> {
  service: {
    move(
      scope: S,
      body: any,
      conditions: RequestConditions,
      idempotency?: IdempotencyRequest,
    ): Promise<Representation<unknown>>;
  };
  /** The repository's move. */
  move: jest.Mock<(...args: any[]) => any>;
  placed: ReturnType<typeof placedMock>;
  writer: WriterMock;
}

/** The body of a move or a copy: into `parentId` (its own parent when left out), at `position`. */
const bodyOf = (member: string, parentId?: string, position?: number) => ({
  ...(parentId === undefined ? {} : { [member]: parentId }),
  ...(position === undefined ? {} : { position }),
});

/**
 * What a move statement reports for node `nodeId` moved into `destination`: its tag r5 before
 * the move, 3 children there, the tree at 1200 bytes after it; `reported` adds what the level reports.
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
 * Registers `move` for a node that may change parent (row, column, content): the placement it
 * asks for, what the statement is told, the 404s, If-Match against the node's own tag (a move
 * gives it the move's revision), the 8 MiB limit, a move that changes nothing, the new Location, and what the
 * writer is given. `levelRules` adds the level's own limits inside the same `describe`.
 */
export function describeNodeMove<S extends object>(
  rules: NodeMoveRules<S>,
  subject: () => NodeMove<S>,
  levelRules: () => void = () => undefined,
): void {
  const { node: Node, parent: Parent, scope, nodeId } = rules;
  const node = Node.toLowerCase();
  const parent = Parent.toLowerCase();
  const into = (parentId?: string, position?: number) =>
    bodyOf(rules.parentMember, parentId, position);
  const MOVED = movedInto(nodeId, rules.target, rules.reported);
  /** What it reports when the node was where the request puts it already. */
  const STAYED = {
    ...MOVED,
    destination: rules.own,
    moved: false,
    siblings: undefined,
    treeBytes: undefined,
  };

  describe('move', () => {
    it(`moves into the ${parent} the body names, at its end, and answers the ${node} with the move's revision 8 as its tag and its new Location`, async () => {
      const { service, move, placed } = subject();
      move.mockImplementation(() => reply(MOVED));
      const answer = await service.move(scope, into(TARGET_ID), RequestConditions.NONE);
      expect(move).toHaveBeenCalledWith(TX, scope, { toParentId: TARGET_ID, position: null });
      // The statement finds its own place: no sibling-order read before it.
      expect(placed).not.toHaveBeenCalled();
      expect(answer.body?.text).toBe(MOVED.json);
      expect(answer.headers).toEqual({
        etag: '"r8"',
        projectRevision: 8,
        location: rules.pathIn.target(nodeId),
      });
    });

    it(`without a ${parent} id moves within its own ${parent}, to the position asked`, async () => {
      const { service, move } = subject();
      move.mockImplementation(() => reply({ ...MOVED, destination: rules.own }));
      const answer = await service.move(scope, into(undefined, 2), RequestConditions.NONE);
      expect(move).toHaveBeenCalledWith(TX, scope, { toParentId: null, position: 2 });
      expect(answer.headers).toEqual({
        etag: '"r8"',
        projectRevision: 8,
        location: rules.pathIn.own(nodeId),
      });
    });

    it(`with a ${parent} id and a position tells the statement both`, async () => {
      const { service, move } = subject();
      move.mockImplementation(() => reply(MOVED));
      await service.move(scope, into(TARGET_ID, 0), RequestConditions.NONE);
      expect(move.mock.calls[0][2]).toEqual({ toParentId: TARGET_ID, position: 0 });
    });

    it('sends its move in the lock’s round, with or without a position, then answers at the revision the lock reports', async () => {
      const { service, move, writer } = subject();
      move.mockImplementation(() => reply(MOVED));
      for (const body of [into(TARGET_ID), into(TARGET_ID, 0)]) {
        move.mockClear();
        duringFirstRound(writer, () => expect(move).toHaveBeenCalledTimes(1), LATE_LOCK);
        await expect(service.move(scope, body, RequestConditions.NONE)).resolves.toMatchObject({
          headers: { etag: '"r13"', projectRevision: 13 },
        });
      }
    });

    it(`a move to where the ${node} is already changes nothing and answers the current revision 7`, async () => {
      const { service, move } = subject();
      move.mockImplementation(() => reply(STAYED));
      const answer = await service.move(scope, into(undefined, 1), ifMatch('"r5"'));
      expect(answer.body?.text).toBe(MOVED.json);
      expect(answer.headers).toEqual({
        etag: '"r5"',
        projectRevision: 7,
        location: rules.pathIn.own(nodeId),
      });
    });

    it(`checks no limit when the ${node} did not move`, async () => {
      const { service, move } = subject();
      move.mockImplementation(() => reply({ ...STAYED, ...rules.full, treeBytes: 9 * MiB + 1 }));
      await expect(service.move(scope, into(), RequestConditions.NONE)).resolves.toBeDefined();
    });

    it(`a missing ${node} is ResourceNotFoundError, whatever If-Match says`, async () => {
      const { service, move } = subject();
      move.mockImplementation(() => reply(undefined));
      for (const conditions of [RequestConditions.NONE, ifMatch('*'), ifMatch('"r5"')]) {
        await expectNotFound(service.move(scope, into(TARGET_ID), conditions), Node);
      }
    });

    it(`a ${parent} id of no ${parent} of the project is ResourceNotFoundError("${Parent}"), whatever If-Match says`, async () => {
      const { service, move } = subject();
      move.mockImplementation(() => reply({ ...STAYED, destination: undefined }));
      for (const conditions of [RequestConditions.NONE, ifMatch('"r5"'), ifMatch('"r4"')]) {
        await expectNotFound(service.move(scope, into(TARGET_ID), conditions), Parent);
      }
    });

    it(`a malformed ${parent} id is ResourceNotFoundError("${Parent}") before any database work`, async () => {
      const { service, move, placed, writer } = subject();
      for (const id of MALFORMED_IDS) {
        await expectNotFound(service.move(scope, into(id), RequestConditions.NONE), Parent);
      }
      expect(writer.write).not.toHaveBeenCalled();
      expect(placed).not.toHaveBeenCalled();
      expect(move).not.toHaveBeenCalled();
    });

    it(`fails with the ${node}’s own tag when If-Match names another (the write rolls back)`, async () => {
      const { service, move, writer } = subject();
      move.mockImplementation(() => reply(MOVED));
      // An older tag, the project's current and next revisions, and the weak form of its own.
      const others = ['"r4"', '"r7"', '"r8"', 'W/"r5"'];
      for (const tag of others) {
        await expect(service.move(scope, into(TARGET_ID), ifMatch(tag))).rejects.toMatchObject({
          constructor: PreconditionFailedError,
          currentTag: '"r5"',
        });
      }
      for (const { value } of writer.write.mock.results) {
        await expect(value).rejects.toBeInstanceOf(PreconditionFailedError);
      }
      for (const tag of ['"r5"', '*', '"r4", "r5"']) {
        await expect(service.move(scope, into(TARGET_ID), ifMatch(tag))).resolves.toBeDefined();
      }
    });

    it('checks If-Match before the limits', async () => {
      const { service, move } = subject();
      move.mockImplementation(() => reply({ ...MOVED, ...rules.full, treeBytes: 9 * MiB }));
      await expect(service.move(scope, into(TARGET_ID), ifMatch('"r4"'))).rejects.toBeInstanceOf(
        PreconditionFailedError,
      );
    });

    it('refuses a move that takes the tree past 8 MiB, not one that stays at 8 MiB', async () => {
      const { service, move } = subject();
      move.mockImplementationOnce(() => reply({ ...MOVED, treeBytes: 8 * MiB }));
      await expect(
        service.move(scope, into(TARGET_ID), RequestConditions.NONE),
      ).resolves.toBeDefined();
      move.mockImplementationOnce(() => reply({ ...MOVED, treeBytes: 8 * MiB + 1 }));
      await expect(
        service.move(scope, into(TARGET_ID), RequestConditions.NONE),
      ).rejects.toMatchObject({
        constructor: LimitExceededError,
        limit: 8 * MiB,
      });
    });

    it('passes the idempotency request on to the writer, with 200 as the status a replay answers', async () => {
      const { service, move, writer } = subject();
      move.mockImplementation(() => reply(MOVED));
      await service.move(scope, into(TARGET_ID), RequestConditions.NONE, IDEMPOTENT);
      expect(writer.write).toHaveBeenCalledWith(
        scope,
        expect.objectContaining({ operation: expect.stringMatching(/\.move$/) }),
        expect.any(Function),
        IDEMPOTENT,
        200,
      );
      await service.move(scope, into(TARGET_ID), RequestConditions.NONE);
      expect(writer.write).toHaveBeenLastCalledWith(
        scope,
        expect.anything(),
        expect.any(Function),
        undefined,
        200,
      );
    });

    it(`another account’s project is ResourceNotFoundError("Project"), before the ${node}’s rules`, async () => {
      const { service, move, writer } = subject();
      move.mockImplementation(() => reply(undefined));
      lockFindsNoProject(writer);
      await expectNotFound(service.move(scope, into(TARGET_ID), ifMatch('"r1"')), 'Project');
    });

    levelRules();
  });
}

/** What describeNodeDuplicate copies through, given per test: the service, its mocks, the writer. */
export interface NodeDuplicate<S> {
  service: {
    duplicate(
      scope: S,
      body: any,
      conditions: RequestConditions,
      idempotency?: IdempotencyRequest,
    ): Promise<Representation<unknown>>;
  };
  /** The repository's copy: the copy's report and its document, both Pending. */
  copy: jest.Mock<(...args: any[]) => any>;
  placed: ReturnType<typeof placedMock>;
  writer: WriterMock;
}

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

/**
 * Registers `duplicate` for a node that may be copied into another parent (row, column,
 * content): the placement (right after the original when it stays in its parent), the new id,
 * what the statement is told, the 404s, If-Match against the original's tag, the 20 000 nodes
 * and 8 MiB limits, the copy's tag at the new revision, its Location, and what the writer is
 * given. `levelRules` adds the level's own limits inside the same `describe`.
 */
export function describeNodeDuplicate<S extends object>(
  rules: NodeMoveRules<S>,
  subject: () => NodeDuplicate<S>,
  levelRules: () => void = () => undefined,
): void {
  const { node: Node, parent: Parent, level, scope, ownParentId, nodeId } = rules;
  const node = Node.toLowerCase();
  const parent = Parent.toLowerCase();
  const into = (parentId?: string, position?: number) =>
    bodyOf(rules.parentMember, parentId, position);
  const COPIED = copiedInto(rules.target, rules.reported);
  const COPY_JSON = '{"_id":"the copy"}';
  /** Makes the copy report `copied` and its document `json` (null: none found). */
  const copies = (
    copy: NodeDuplicate<S>['copy'],
    copied: object | undefined,
    json: string | null = COPY_JSON,
  ) => copy.mockImplementation(() => ({ copied: reply(copied), json: reply(json ?? undefined) }));
  /** A report of a copy refused by the statement: nothing made, nothing counted. */
  const REFUSED = { copied: false, siblings: undefined };

  describe('duplicate', () => {
    it(`copies into the ${parent} the body names, at its end, with a new id, and answers the copy with etag "r8", revision 8 and its Location`, async () => {
      const { service, copy, placed } = subject();
      copies(copy, COPIED);
      const answer = await service.duplicate(scope, into(TARGET_ID), RequestConditions.NONE);
      expect(placed).toHaveBeenCalledWith(
        TX,
        level,
        { projectId: 'p1', parentId: TARGET_ID, position: undefined, afterId: undefined },
        expect.any(Function),
      );
      expect(copy).toHaveBeenCalledWith(TX, scope, {
        copyId: A_NEW_ID,
        toParentId: TARGET_ID,
        sortKey: null,
        maxNodes: 20_000,
        maxTreeBytes: 8 * MiB,
      });
      const { copyId } = copy.mock.calls[0][2];
      expect(answer.body?.text).toBe(COPY_JSON);
      expect(answer.headers).toEqual({
        etag: '"r8"',
        projectRevision: 8,
        location: rules.pathIn.target(copyId),
      });
    });

    it(`without a ${parent} id puts the copy right after the original, in its own ${parent}`, async () => {
      const { service, copy, placed } = subject();
      copies(copy, { ...COPIED, destination: rules.own });
      const answer = await service.duplicate(scope, into(), RequestConditions.NONE);
      expect(placed).toHaveBeenCalledWith(
        TX,
        level,
        { projectId: 'p1', parentId: ownParentId, position: undefined, afterId: nodeId },
        expect.any(Function),
      );
      expect(copy.mock.calls[0][2]).toMatchObject({ toParentId: null, sortKey: '1500' });
      const { copyId } = copy.mock.calls[0][2];
      expect(answer.headers.location).toBe(rules.pathIn.own(copyId));
    });

    it(`naming its own ${parent}, puts the copy right after the original too`, async () => {
      const { service, copy, placed } = subject();
      copies(copy, COPIED);
      const under = rules.scopeUnder(TARGET_ID);
      await service.duplicate(under, into(TARGET_ID), RequestConditions.NONE);
      expect(placed.mock.calls[0][2]).toEqual({
        projectId: 'p1',
        parentId: TARGET_ID,
        position: undefined,
        afterId: nodeId,
      });
      expect(copy.mock.calls[0][2]).toMatchObject({ toParentId: TARGET_ID, sortKey: '1500' });
    });

    // Ids are matched in any letter case (RESOURCE_ID, PostgreSQL's uuid): the same parent.
    it(`naming its own ${parent}, puts the copy right after the original too`, async () => {
      const { service, copy, placed } = subject();
      copies(copy, COPIED);
      const under = rules.scopeUnder(TARGET_ID);
      await service.duplicate(under, into(TARGET_ID), RequestConditions.NONE);
      expect(placed.mock.calls[0][2]).toMatchObject({ afterId: nodeId });
    });

    it(`naming a ${parent} id in capitals names no ${parent}: ResourceNotFoundError("${Parent}")`, async () => {
      const { service, copy } = subject();
      copies(copy, COPIED);
      await expectNotFound(
        service.duplicate(scope, into(TARGET_ID.toUpperCase()), RequestConditions.NONE),
        Parent,
      );
      expect(copy).not.toHaveBeenCalled();
    });

    it(`puts the copy at the position asked, in the ${parent} named or in its own`, async () => {
      const { service, copy, placed } = subject();
      copies(copy, COPIED);
      await service.duplicate(scope, into(TARGET_ID, 0), RequestConditions.NONE);
      await service.duplicate(scope, into(undefined, 2), RequestConditions.NONE);
      expect(placed.mock.calls.map(([, , where]) => where)).toEqual([
        { projectId: 'p1', parentId: TARGET_ID, position: 0, afterId: undefined },
        { projectId: 'p1', parentId: ownParentId, position: 2, afterId: nodeId },
      ]);
      expect(copy.mock.calls.map(([, , request]) => request.sortKey)).toEqual(['1500', '1500']);
    });

    it('gives every copy an id of its own', async () => {
      const { service, copy } = subject();
      copies(copy, COPIED);
      const first = await service.duplicate(scope, into(TARGET_ID), RequestConditions.NONE);
      const second = await service.duplicate(scope, into(TARGET_ID), RequestConditions.NONE);
      const [one, two] = copy.mock.calls.map(([, , request]) => request.copyId);
      expect(one).toEqual(A_NEW_ID);
      expect(two).toEqual(A_NEW_ID);
      expect(one).not.toBe(two);
      expect(first.headers.location).toBe(rules.pathIn.target(one));
      expect(second.headers.location).toBe(rules.pathIn.target(two));
    });

    it('sends the copy and the read of its document in the lock’s round when no place is asked, then answers at the revision the lock reports', async () => {
      const { service, copy, writer } = subject();
      copies(copy, COPIED);
      duringFirstRound(writer, () => expect(copy).toHaveBeenCalledTimes(1), LATE_LOCK);
      await expect(
        service.duplicate(scope, into(TARGET_ID), RequestConditions.NONE),
      ).resolves.toMatchObject({ headers: { etag: '"r13"', projectRevision: 13 } });
    });

    it(`a missing ${node} is ResourceNotFoundError, whatever If-Match says`, async () => {
      const { service, copy } = subject();
      copies(copy, undefined, null);
      for (const conditions of [RequestConditions.NONE, ifMatch('*'), ifMatch('"r5"')]) {
        await expectNotFound(service.duplicate(scope, into(TARGET_ID), conditions), Node);
      }
    });

    it(`a ${parent} id of no ${parent} of the project is ResourceNotFoundError("${Parent}"), whatever If-Match says`, async () => {
      const { service, copy } = subject();
      copies(copy, { ...COPIED, ...REFUSED, destination: undefined }, null);
      for (const conditions of [RequestConditions.NONE, ifMatch('"r5"'), ifMatch('"r4"')]) {
        await expectNotFound(service.duplicate(scope, into(TARGET_ID), conditions), Parent);
      }
    });

    it(`a malformed ${parent} id is ResourceNotFoundError("${Parent}") before any database work`, async () => {
      const { service, copy, placed, writer } = subject();
      for (const id of MALFORMED_IDS) {
        await expectNotFound(service.duplicate(scope, into(id), RequestConditions.NONE), Parent);
      }
      expect(writer.write).not.toHaveBeenCalled();
      expect(placed).not.toHaveBeenCalled();
      expect(copy).not.toHaveBeenCalled();
    });

    it('fails with the original’s tag when If-Match names another (the write rolls back)', async () => {
      const { service, copy, writer } = subject();
      copies(copy, COPIED);
      for (const tag of ['"r4"', '"r7"', '"r8"', 'W/"r5"']) {
        await expect(service.duplicate(scope, into(TARGET_ID), ifMatch(tag))).rejects.toMatchObject(
          {
            constructor: PreconditionFailedError,
            currentTag: '"r5"',
          },
        );
      }
      for (const { value } of writer.write.mock.results) {
        await expect(value).rejects.toBeInstanceOf(PreconditionFailedError);
      }
      await expect(
        service.duplicate(scope, into(TARGET_ID), ifMatch('"r5"')),
      ).resolves.toMatchObject({ headers: { etag: '"r8"' } });
    });

    it('checks If-Match before the limits', async () => {
      const { service, copy } = subject();
      copies(
        copy,
        { ...COPIED, ...REFUSED, ...rules.full, nodes: 20_001, treeAfter: 9 * MiB },
        null,
      );
      await expect(
        service.duplicate(scope, into(TARGET_ID), ifMatch('"r4"')),
      ).rejects.toBeInstanceOf(PreconditionFailedError);
    });

    it('accepts a copy of 20 000 nodes and refuses one of 20 001 with LimitExceededError(20000)', async () => {
      const { service, copy } = subject();
      copies(copy, { ...COPIED, nodes: 20_000 });
      await expect(
        service.duplicate(scope, into(TARGET_ID), RequestConditions.NONE),
      ).resolves.toBeDefined();
      copies(copy, { ...COPIED, ...REFUSED, nodes: 20_001 }, null);
      await expect(
        service.duplicate(scope, into(TARGET_ID), RequestConditions.NONE),
      ).rejects.toMatchObject({ constructor: LimitExceededError, limit: 20_000 });
    });

    it('refuses a copy that takes the tree past 8 MiB, not one that stays at 8 MiB', async () => {
      const { service, copy } = subject();
      copies(copy, { ...COPIED, treeAfter: 8 * MiB });
      await expect(
        service.duplicate(scope, into(TARGET_ID), RequestConditions.NONE),
      ).resolves.toBeDefined();
      copies(copy, { ...COPIED, ...REFUSED, treeAfter: 8 * MiB + 1 }, null);
      await expect(
        service.duplicate(scope, into(TARGET_ID), RequestConditions.NONE),
      ).rejects.toMatchObject({ constructor: LimitExceededError, limit: 8 * MiB });
    });

    it('a copy the statement refused under no rule the service knows fails as a defect, not as a client error', async () => {
      const { service, copy } = subject();
      copies(copy, { ...COPIED, ...REFUSED }, null);
      await expect(
        service.duplicate(scope, into(TARGET_ID), RequestConditions.NONE),
      ).rejects.toMatchObject({
        constructor: Error,
        message: 'A copy was refused by no rule the service knows',
      });
    });

    it(`a copy whose document its round does not find is ResourceNotFoundError("${Node}")`, async () => {
      const { service, copy } = subject();
      copies(copy, COPIED, null);
      await expectNotFound(service.duplicate(scope, into(TARGET_ID), RequestConditions.NONE), Node);
    });

    it('passes the idempotency request on to the writer, the status left to it (a copy answers 201)', async () => {
      const { service, copy, writer } = subject();
      copies(copy, COPIED);
      await service.duplicate(scope, into(TARGET_ID), RequestConditions.NONE, IDEMPOTENT);
      const [called, change, work, idempotency, status] = writer.write.mock.calls[0];
      expect([called, change, work, idempotency]).toEqual([
        scope,
        expect.objectContaining({ operation: expect.stringMatching(/\.duplicate$/) }),
        expect.any(Function),
        IDEMPOTENT,
      ]);
      expect(status ?? CREATED).toBe(201);
    });

    it(`another account’s project is ResourceNotFoundError("Project"), before the ${node}’s rules`, async () => {
      const { service, copy, writer } = subject();
      copies(copy, undefined, null);
      lockFindsNoProject(writer);
      await expectNotFound(service.duplicate(scope, into(TARGET_ID), ifMatch('"r1"')), 'Project');
    });

    levelRules();
  });
}
