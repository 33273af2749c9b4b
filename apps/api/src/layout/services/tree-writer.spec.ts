import { jest } from '@jest/globals';
import { PreconditionFailedError, ResourceNotFoundError } from '../../common/errors';
import { type Database } from '../../database/database';
import { type SqlSession } from '../../database/sql-session';
import { type ProjectScope } from '../layout.scopes';
import { type IdempotencyKeysRepository } from '../repositories/idempotency-keys.repository';
import {
  type LockedProject as FoundProject,
  type ProjectsRepository,
} from '../repositories/projects.repository';
import { type LockedProject, type TreeWrite, TreeWriter } from './tree-writer';

const SCOPE: ProjectScope = { accountId: 'acc-1', projectId: 'p1' };
const TX = { name: 'tx' } as unknown as SqlSession;
const FOUND: FoundProject = { revision: 7, title: 'Old', treeBytes: 1000 };

/** A promise and the functions that settle it, for answers that arrive when a test says so. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets every pending promise callback run (timers are not faked here). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Whether `promise` has settled yet, without waiting for it. */
async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await settle();
  return settled;
}

describe('TreeWriter', () => {
  let lockForWrite: jest.Mock<ProjectsRepository['lockForWrite']>;
  let transaction: jest.Mock<
    (work: (tx: SqlSession) => Promise<unknown>, group?: string) => Promise<unknown>
  >;
  let writer: TreeWriter;

  beforeEach(() => {
    lockForWrite = jest.fn<ProjectsRepository['lockForWrite']>();
    transaction = jest.fn((work) => work(TX));
    writer = new TreeWriter(
      { transaction } as unknown as Database,
      { lockForWrite } as unknown as ProjectsRepository,
      {} as IdempotencyKeysRepository,
    );
  });

  it('sends the lock in the transaction and runs the work at once, before the lock answers', async () => {
    const lock = deferred<FoundProject | undefined>();
    lockForWrite.mockReturnValue(lock.promise);
    const work = jest.fn((_write: TreeWrite) => Promise.resolve('done'));

    const result = writer.write(SCOPE, work);
    await settle();

    // The lock has not answered: the work's statements are not held back behind its answer.
    expect(transaction).toHaveBeenCalledTimes(1);
    expect(lockForWrite).toHaveBeenCalledWith(TX, SCOPE);
    expect(work).toHaveBeenCalledTimes(1);
    expect(work).toHaveBeenCalledWith({ tx: TX, project: expect.any(Promise) });
    // The lock goes first on the connection.
    expect(lockForWrite.mock.invocationCallOrder[0]).toBeLessThan(work.mock.invocationCallOrder[0]);

    lock.resolve(FOUND);
    await expect(result).resolves.toBe('done');
  });

  it("shares its transaction with the other writes of the caller's project, and no other", async () => {
    lockForWrite.mockResolvedValue(FOUND);
    await writer.write(SCOPE, () => Promise.resolve('done'));
    await writer.write({ accountId: 'acc-2', projectId: 'p1' }, () => Promise.resolve('done'));
    expect(transaction.mock.calls.map(([, group]) => group)).toEqual(['acc-1/p1', 'acc-2/p1']);
  });

  it('gives the work the locked project with the revision this write creates', async () => {
    lockForWrite.mockResolvedValue(FOUND);
    let seen: LockedProject | undefined;
    await writer.write(SCOPE, async (write) => {
      seen = await write.project;
    });
    expect(seen).toEqual({ revision: 8, currentRevision: 7, title: 'Old', treeBytes: 1000 });
  });

  it('answers only once the lock has answered, even when the work is done first', async () => {
    const lock = deferred<FoundProject | undefined>();
    lockForWrite.mockReturnValue(lock.promise);

    const result = writer.write(SCOPE, () => Promise.resolve('done'));

    expect(await isSettled(result)).toBe(false);
    lock.resolve(FOUND);
    await expect(result).resolves.toBe('done');
  });

  it('waits for the lock’s answer before letting an error of the work out', async () => {
    const lock = deferred<FoundProject | undefined>();
    lockForWrite.mockReturnValue(lock.promise);
    const failure = new PreconditionFailedError('"r5"');

    const result = writer.write(SCOPE, () => Promise.reject(failure));

    expect(await isSettled(result)).toBe(false);
    lock.resolve(FOUND);
    await expect(result).rejects.toBe(failure);
  });

  it('lets an error of the work out of the transaction, so that it rolls back', async () => {
    lockForWrite.mockResolvedValue({ revision: 1, title: 't', treeBytes: 10 });
    const failure = new Error('rule broken');
    await expect(writer.write(SCOPE, () => Promise.reject(failure))).rejects.toBe(failure);
    await expect(transaction.mock.results[0].value).rejects.toBe(failure);
  });

  describe('a lock that finds no project of the account’s', () => {
    beforeEach(() => {
      lockForWrite.mockResolvedValue(undefined);
    });

    it('fails the write with ResourceNotFoundError(Project), so that it rolls back, though the work succeeded', async () => {
      const work = jest.fn((_write: TreeWrite) => Promise.resolve('done'));
      await expect(writer.write(SCOPE, work)).rejects.toThrow(new ResourceNotFoundError('Project'));
      expect(work).toHaveBeenCalledTimes(1);
      await expect(transaction.mock.results[0].value).rejects.toBeInstanceOf(ResourceNotFoundError);
    });

    it.each([
      ['a node of the path not found', new ResourceNotFoundError('Block')],
      ['a failed If-Match', new PreconditionFailedError('"r5"')],
      ['an unexpected error', new Error('block.insert: the project found under the lock is gone')],
    ])('answers Project not found when the work failed with %s', async (_name, failure) => {
      const failed = writer.write(SCOPE, () => Promise.reject(failure));
      await expect(failed).rejects.toBeInstanceOf(ResourceNotFoundError);
      await expect(failed).rejects.toThrow('Project not found');
    });

    it('rejects the work’s project with the same ResourceNotFoundError', async () => {
      let seen: unknown;
      const failed = writer.write(SCOPE, async (write) => {
        try {
          await write.project;
        } catch (error) {
          seen = error;
          throw error;
        }
      });
      await expect(failed).rejects.toThrow(new ResourceNotFoundError('Project'));
      expect(seen).toEqual(new ResourceNotFoundError('Project'));
    });
  });

  describe('a lock that fails (a database error)', () => {
    const broken = new Error('canceling statement due to statement timeout');

    beforeEach(() => {
      lockForWrite.mockRejectedValue(broken);
    });

    it('fails the write with the lock’s error though the work succeeded', async () => {
      await expect(writer.write(SCOPE, () => Promise.resolve('done'))).rejects.toBe(broken);
      await expect(transaction.mock.results[0].value).rejects.toBe(broken);
    });

    it('fails the write with the lock’s error, not the one its statements met after it', async () => {
      const aborted = new Error('current transaction is aborted');
      await expect(writer.write(SCOPE, () => Promise.reject(aborted))).rejects.toBe(broken);
    });

    it('rejects the work’s project with that error', async () => {
      let seen: unknown;
      await expect(
        writer.write(SCOPE, async (write) => {
          seen = await write.project.catch((error: unknown) => error);
        }),
      ).rejects.toBe(broken);
      expect(seen).toBe(broken);
    });
  });
});
