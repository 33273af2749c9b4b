// Fakes and shared rules for the unit specs of the layout services
// (apps/api/src/layout/services/*.service.spec.ts). Under test/, so the build never ships it.
import { jest } from '@jest/globals';
import { PreconditionFailedError, ResourceNotFoundError } from '../../apps/api/src/common/errors';
import { RequestConditions } from '../../apps/api/src/common/http/request-conditions';
import { type Representation } from '../../apps/api/src/common/http/representation';
import { type Database } from '../../apps/api/src/database/database';
import { type SqlSession } from '../../apps/api/src/database/sql-session';
import { Pending, type Round, Step } from '../../apps/api/src/database/unit-of-work';
import {
  type BlockScope,
  type ColumnScope,
  type ContentScope,
  type ProjectScope,
  type RowScope,
} from '../../apps/api/src/layout/layout.scopes';
import { type SiblingOrderRepository } from '../../apps/api/src/layout/repositories/sibling-order.repository';
import { type TaggedDocument } from '../../apps/api/src/layout/repositories/sql/tagged-reads';
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
export async function runWrite<T>(
  work: (write: TreeWrite) => Step<T>,
  lock: LockOutcome,
  afterFirstRound: () => void = () => undefined,
): Promise<T> {
  unanswered = [];
  Object.assign(TX, { project: Pending.waiting<LockedProject>() });
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
  TX.project.settle(
    'project' in lock
      ? { status: 'fulfilled', value: lock.project }
      : { status: 'rejected', reason: new ResourceNotFoundError('Project') },
  );
  step = step.checkedFirst(() => TX.project.get());
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
    (scope: ProjectScope, work: (w: TreeWrite) => Step<unknown>) => Promise<unknown>
  >;
};
/** A fresh WriterMock. */
export const writerMock = (): WriterMock => ({
  write: jest.fn((_scope, work) => runWrite(work, { project: LOCKED })),
});

/** Makes `writer`'s writes find the project as LOCKED with `project` over it. */
export function lockFinds(writer: WriterMock, project: Partial<LockedProject>): void {
  writer.write.mockImplementation((_scope, work) =>
    runWrite(work, { project: { ...LOCKED, ...project } }),
  );
}

/** Makes `writer`'s writes find no project of the account's (the TreeWriter then answers 404). */
export function lockFindsNoProject(writer: WriterMock): void {
  writer.write.mockImplementation((_scope, work) => runWrite(work, { missing: true }));
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
  writer.write.mockImplementationOnce((_scope, work) => runWrite(work, { project }, whileSending));
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
  documentIn: jest.Mock<(round: Round, p: P) => Pending<TaggedDocument | undefined>>;
  revision: jest.Mock<(db: SqlSession, p: P) => Promise<number | undefined>>;
};
/** A fresh ReadsMock, answering nothing until a test says what. */
export const readsMock = <P>(): ReadsMock<P> => ({
  document: jest.fn(),
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

    it('retrieve answers 304 from the revision alone when If-None-Match names the current tag, and reads the document on an old one', async () => {
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

      reads.document.mockResolvedValue(NODE);
      const stale = await service.retrieve(scopes.node, ifNoneMatch('"r4"'));
      expect(stale.notModified).toBe(false);
      expect(stale.body?.text).toBe(NODE.json);
      expect(stale.headers).toEqual({ etag: '"r5"' });
      expect(reads.document).toHaveBeenCalledTimes(1);
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

      const stale = await service.list(scopes.parent, ifNoneMatch('"l5"'));
      expect(stale.notModified).toBe(false);
      expect(stale.headers).toEqual({ etag: '"l6"' });
      expect(reads.document).toHaveBeenCalledWith(DB, scopes.parent);
    });

    it(`a missing ${node} or ${parent} is ResourceNotFoundError, with or without If-None-Match`, async () => {
      const { service, node: nodeReads, list: listReads } = subject();
      for (const reads of [nodeReads, listReads]) {
        reads.document.mockResolvedValue(undefined);
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
