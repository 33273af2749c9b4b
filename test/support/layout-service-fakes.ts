// Fakes and shared rules for the unit specs of the layout services
// (apps/api/src/layout/services/*.service.spec.ts). Under test/, so the build never ships it.
import { jest } from '@jest/globals';
import { PreconditionFailedError, ResourceNotFoundError } from '../../apps/api/src/common/errors';
import { RequestConditions } from '../../apps/api/src/common/http/request-conditions';
import { type Representation } from '../../apps/api/src/common/http/representation';
import { type Database } from '../../apps/api/src/database/database';
import { type SqlSession } from '../../apps/api/src/database/sql-session';
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
/** The transaction of every fake write. */
export const TX = { name: 'the write transaction' } as unknown as SqlSession;

/** The project as the write's lock finds it: at revision 7, so the write creates 8. */
export const LOCKED: LockedProject = {
  revision: 8,
  currentRevision: 7,
  title: 'Old',
  treeBytes: 1000,
};
/** The project as a lock that answers late finds it: at revision 12, so the write creates 13. */
export const LATE_LOCK: LockedProject = { ...LOCKED, revision: 13, currentRevision: 12 };

/** A write whose lock found the project (as LOCKED, with `project` over it). */
export const writeOf = (project: Partial<LockedProject> = {}): TreeWrite => ({
  tx: TX,
  project: Promise.resolve({ ...LOCKED, ...project }),
});

/** The TreeWriter, faked: `write(scope, work)` runs `work` in a write that found LOCKED. */
export type WriterMock = {
  write: jest.Mock<
    (scope: ProjectScope, work: (w: TreeWrite) => Promise<unknown>) => Promise<unknown>
  >;
};
/** A fresh WriterMock. */
export const writerMock = (): WriterMock => ({
  write: jest.fn((_scope, work) => work(writeOf())),
});

/** Makes `writer`'s writes find the project as LOCKED with `project` over it. */
export function lockFinds(writer: WriterMock, project: Partial<LockedProject>): void {
  writer.write.mockImplementation((_scope, work) => work(writeOf(project)));
}

/** Makes `writer`'s writes find no project of the account's (the TreeWriter then answers 404). */
export function lockFindsNoProject(writer: WriterMock): void {
  writer.write.mockImplementation((_scope, work) => {
    const project = Promise.reject(new ResourceNotFoundError('Project'));
    project.catch(() => undefined); // the TreeWriter waits for it, whatever the work does
    return work({ tx: TX, project });
  });
}

/** Makes `writer`'s writes run behind a lock that answers only when the test resolves it. */
export function pendingLock(writer: WriterMock): { resolve: (project: LockedProject) => void } {
  let resolve!: (project: LockedProject) => void;
  const project = new Promise<LockedProject>((res) => (resolve = res));
  writer.write.mockImplementation((_scope, work) => work({ tx: TX, project }));
  return { resolve };
}

/** Lets every pending promise callback run. */
export const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** SiblingOrderRepository.keyAt, faked as the real one answers: no position, no key; else '1500'. */
export const keyAtMock = () =>
  jest.fn<SiblingOrderRepository['keyAt']>((_tx, _level, request) =>
    Promise.resolve(request.position === undefined ? undefined : '1500'),
  );

/** A repository's TaggedReads, mocked: the document with its revision, and the revision alone. */
export type ReadsMock<P> = {
  document: jest.Mock<(db: SqlSession, p: P) => Promise<TaggedDocument | undefined>>;
  revision: jest.Mock<(db: SqlSession, p: P) => Promise<number | undefined>>;
};
/** A fresh ReadsMock, answering nothing until a test says what. */
export const readsMock = <P>(): ReadsMock<P> => ({ document: jest.fn(), revision: jest.fn() });

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
  remove: jest.Mock<(tx: SqlSession, scope: S) => Promise<number | undefined>>;
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
      remove.mockResolvedValue(5);
      const answer = await service.delete(scope, ifMatch('"r5"'));
      expect(remove).toHaveBeenCalledWith(TX, scope);
      expect(answer.body).toBeUndefined();
      expect(answer.notModified).toBe(false);
      expect(answer.headers).toEqual({ projectRevision: 8 });
    });

    it('sends the delete without waiting for the lock’s answer', async () => {
      const { service, remove, writer } = subject();
      remove.mockResolvedValue(5);
      const lock = pendingLock(writer);
      const answer = service.delete(scope, ifMatch('"r5"'));
      await settle();
      expect(remove).toHaveBeenCalledWith(TX, scope);
      lock.resolve(LATE_LOCK);
      await expect(answer).resolves.toMatchObject({ headers: { projectRevision: 13 } });
    });

    it(`fails with the deleted ${node}’s tag when If-Match names another (the write rolls back)`, async () => {
      const { service, remove, writer } = subject();
      remove.mockResolvedValue(5);
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
      remove.mockResolvedValue(undefined);
      for (const conditions of [RequestConditions.NONE, ifMatch('*'), ifMatch('"r5"')]) {
        await expectNotFound(service.delete(scope, conditions), name);
      }
    });
  });
}
