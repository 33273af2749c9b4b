import { loadConfig } from '../../config/load-config';
import { type ChangeAnnouncer } from '../events/change-announcer';
import { jest } from '@jest/globals';
import { PreconditionFailedError, ResourceNotFoundError } from '../../common/errors';
import { ForbiddenByRoleError } from '../../members/errors';
import { Representation } from '../../common/http/representation';
import { SerializedJson } from '../../common/json/serialized-json';
import { type Database } from '../../database/database';
import { sqlStatement } from '../../database/sql-statement';
import { Pending, UnsettledRead, type Work } from '../../database/unit-of-work';
import { type ProjectScope } from '../layout.scopes';
import { IdempotencyKeysRepository } from '../repositories/idempotency-keys.repository';
import { ProjectsRepository } from '../repositories/projects.repository';
import {
  byName,
  fakeConnection,
  type FakeAnswer,
  IDEMPOTENT,
  settle,
} from '../../../../../test/support/layout-service-fakes';
import { type LockedProject, type LockedRound } from '../locked-round';
import { type Metrics } from '../../metrics/metrics';
import { TreeWriter } from './tree-writer';

const SCOPE: ProjectScope = { accountId: 'acc-1', projectId: 'p1' };
/** The row the lock statement answers for the project at revision 7. */
const FOUND = {
  revision: 7,
  title: 'Old',
  tree_bytes: '1000',
  write_revision: '8',
  role: 'editor',
};

/** Statements of the works under test, answered by name like every other. */
const READ = sqlStatement<{ id: number }, { n: number }>(
  'tree-writer-spec.read',
  'SELECT $id::int AS n',
);
const WRITE = sqlStatement<{ n: number }, { n: number }>(
  'tree-writer-spec.write',
  'SELECT $n::int AS n',
);

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

/** A work that reads READ and answers its `n` (what most tests need of a work). */
const reading: Work<number | undefined> = (write) => {
  const read = write.row(READ, { id: 1 });
  return write.finish(() => read.get()?.n);
};

/** A work that reads READ in its first round and answers a representation of it. */
const representingWork = () =>
  jest.fn((write: LockedRound) => {
    const read = write.row(READ, { id: 1 });
    return write.finish(() =>
      Representation.of(new SerializedJson<{ n: number }>(`{"n":${read.get()!.n}}`), {
        etag: '"r8"',
        projectRevision: write.project.get().revision,
        location: '/projects/p1/blocks/b9',
      }),
    );
  });

const CHANGE = {
  operation: 'content.update',
  path: '/projects/p/contents/c',
  least: 'editor',
} as const;

describe('TreeWriter', () => {
  const announcer = { announce: jest.fn() };
  const metrics = { revisionCommitted: jest.fn() };
  let transaction: jest.Mock<(work: Work<unknown>, group?: string) => Promise<unknown>>;
  let connection: ReturnType<typeof fakeConnection>;
  let writer: TreeWriter;

  /**
   * A database whose transactions run their work on a fake connection (unit-of-work.ts's
   * startWork), that answers each statement with what `answers` holds under its name.
   */
  function answering(answers: Record<string, FakeAnswer>): void {
    connection = fakeConnection(byName(answers));
    transaction = jest.fn((work: Work<unknown>, _group?: string) => connection.run(work));
    writer = new TreeWriter(
      { transaction } as unknown as Database,
      new ProjectsRepository(),
      new IdempotencyKeysRepository(),
      announcer as unknown as ChangeAnnouncer,
      { ...loadConfig({}), history: { revisions: 1000 } },
      metrics as unknown as Metrics,
    );
  }

  beforeEach(() => {
    answering({
      'projects.lock': [FOUND],
      'tree-writer-spec.read': [{ n: 1 }],
      'tree-writer-spec.write': [{ n: 2 }],
    });
  });

  it('sends the lock first, and the work’s statements in the same round, before anything has answered', async () => {
    const work = jest.fn(reading);

    const result = writer.write(SCOPE, CHANGE, work);

    // Nothing has answered yet: the work's statements are not held back behind the lock's answer.
    expect(transaction).toHaveBeenCalledTimes(1);
    expect(work).toHaveBeenCalledTimes(1);
    expect(work).toHaveBeenCalledWith(expect.objectContaining({ project: expect.any(Pending) }));
    expect(connection.rounds).toEqual([['projects.lock', 'tree-writer-spec.read']]);
    // The lock carries what the history records of the write.
    expect(connection.sent[0].params).toEqual({ ...SCOPE, ...CHANGE, historyRevisions: 1000 });
    await expect(result).resolves.toBe(1);
  });

  it('sends the work’s next round once the first has answered, in the same transaction', async () => {
    await expect(
      writer.write(SCOPE, CHANGE, (write) => {
        const read = write.row(READ, { id: 1 });
        return write.next((next) => {
          const written = next.row(WRITE, { n: read.get()!.n + 1 });
          return next.finish(() => written.get()?.n);
        });
      }),
    ).resolves.toBe(2);
    expect(transaction).toHaveBeenCalledTimes(1);
    expect(connection.rounds).toEqual([
      ['projects.lock', 'tree-writer-spec.read'],
      ['tree-writer-spec.write'],
    ]);
    expect(connection.sent[2].params).toEqual({ n: 2 });
  });

  it('holds the lock in the work’s next rounds too: each is behind it, with the locked project', async () => {
    const seen: LockedProject[] = [];
    await expect(
      writer.write(SCOPE, CHANGE, (write) => {
        const read = write.row(READ, { id: 1 });
        return write.next((next) => {
          seen.push(next.project.get());
          const written = next.row(WRITE, { n: read.get()!.n + 1 });
          return next.next((last) => last.finish(() => [written.get()?.n, last.project.get()]));
        });
      }),
    ).resolves.toEqual([2, { revision: 8, currentRevision: 7, title: 'Old', treeBytes: 1000 }]);
    expect(seen).toEqual([{ revision: 8, currentRevision: 7, title: 'Old', treeBytes: 1000 }]);
    expect(connection.rounds).toEqual([
      ['projects.lock', 'tree-writer-spec.read'],
      ['tree-writer-spec.write'],
    ]);
  });

  it('runs a step, then more with its answer in a round of its own, still behind the lock (andThen)', async () => {
    await expect(
      writer.write(SCOPE, CHANGE, (write) => {
        const read = write.row(READ, { id: 1 });
        return write.andThen(
          write.finish(() => read.get()!.n),
          (n, round) => {
            const written = round.row(WRITE, { n: n + 1 });
            return round.finish(() => [written.get()?.n, round.project.get().revision]);
          },
        );
      }),
    ).resolves.toEqual([2, 8]);
    expect(connection.rounds).toEqual([
      ['projects.lock', 'tree-writer-spec.read'],
      ['tree-writer-spec.write'],
    ]);
    expect(connection.sent[2].params).toEqual({ n: 2 });
  });

  it('announces the project once its write has committed, and not a write that failed', async () => {
    announcer.announce.mockClear();
    const pending = writer.write(SCOPE, CHANGE, reading);
    expect(announcer.announce).not.toHaveBeenCalled();
    await pending;
    expect(announcer.announce).toHaveBeenCalledWith('p1');
    announcer.announce.mockClear();
    const refused = writer.write(SCOPE, CHANGE, (write) =>
      write.finish(() => {
        throw new Error('refused');
      }),
    );
    await expect(refused).rejects.toThrow('refused');
    expect(announcer.announce).not.toHaveBeenCalled();
  });

  it('counts a revision once a write that created one has committed, and no other', async () => {
    metrics.revisionCommitted.mockClear();
    const answering =
      (projectRevision: (project: LockedProject) => number) => (write: LockedRound) =>
        write.finish(() =>
          Representation.of(new SerializedJson('{}'), {
            projectRevision: projectRevision(write.project.get()),
          }),
        );

    await writer.write(
      SCOPE,
      CHANGE,
      answering((project) => project.revision),
    );
    expect(metrics.revisionCommitted).toHaveBeenCalledTimes(1);
    // Changed nothing: the current revision. A replay: the revision it made then.
    await writer.write(
      SCOPE,
      CHANGE,
      answering((project) => project.currentRevision),
    );
    await writer.write(
      SCOPE,
      CHANGE,
      answering(() => 3),
    );
    await writer.write(SCOPE, CHANGE, reading);
    const refused = writer.write(SCOPE, CHANGE, (write) =>
      write.finish(() => {
        throw new Error('refused');
      }),
    );
    await expect(refused).rejects.toThrow('refused');
    expect(metrics.revisionCommitted).toHaveBeenCalledTimes(1);
  });

  it("shares its transaction with the other writes of the caller's project, and no other", async () => {
    await writer.write(SCOPE, CHANGE, reading);
    await writer.write({ accountId: 'acc-2', projectId: 'p1' }, CHANGE, reading);
    expect(transaction.mock.calls.map(([, group]) => group)).toEqual(['acc-1/p1', 'acc-2/p1']);
  });

  it('gives the work the locked project with the revision this write creates', async () => {
    let seen: LockedProject | undefined;
    await writer.write(SCOPE, CHANGE, (write) => write.finish(() => (seen = write.project.get())));
    expect(seen).toEqual({ revision: 8, currentRevision: 7, title: 'Old', treeBytes: 1000 });
  });

  it('gives the work no way to read the project before the lock has answered', async () => {
    await expect(
      writer.write(SCOPE, CHANGE, (write) => {
        const project = write.project.get();
        return write.finish(() => project);
      }),
    ).rejects.toBeInstanceOf(UnsettledRead);
  });

  it('answers only once the lock has answered, even when the work is done first', async () => {
    const lock = deferred<readonly unknown[]>();
    answering({ 'projects.lock': lock.promise });

    const result = writer.write(SCOPE, CHANGE, (write) => write.finish(() => 'done'));

    expect(await isSettled(result)).toBe(false);
    lock.resolve([FOUND]);
    await expect(result).resolves.toBe('done');
  });

  it('waits for the lock’s answer before letting an error of the work out', async () => {
    const lock = deferred<readonly unknown[]>();
    answering({ 'projects.lock': lock.promise });
    const failure = new PreconditionFailedError('"r5"');

    const result = writer.write(SCOPE, CHANGE, () => {
      throw failure;
    });

    expect(await isSettled(result)).toBe(false);
    lock.resolve([FOUND]);
    await expect(result).rejects.toBe(failure);
  });

  it('lets an error of the work’s continuation out of the transaction, so that it rolls back', async () => {
    const failure = new Error('rule broken');
    await expect(
      writer.write(SCOPE, CHANGE, (write) =>
        write.finish(() => {
          throw failure;
        }),
      ),
    ).rejects.toBe(failure);
    await expect(transaction.mock.results[0].value).rejects.toBe(failure);
  });

  describe('a lock that finds a member whose role is less than the change needs', () => {
    beforeEach(() => {
      answering({
        'projects.lock': [{ ...FOUND, write_revision: '', role: 'viewer' }],
        'tree-writer-spec.read': [],
      });
    });

    it('fails the write with ForbiddenByRoleError, naming the role and the one needed, and runs no continuation', async () => {
      const continuation = jest.fn(() => 'read');
      const failed = writer.write(SCOPE, CHANGE, (write) => {
        write.row(READ, { id: 1 });
        return write.next((next) => next.finish(continuation));
      });
      await expect(failed).rejects.toThrow(new ForbiddenByRoleError('viewer', 'editor'));
      expect(continuation).not.toHaveBeenCalled();
      expect(connection.rounds).toEqual([['projects.lock', 'tree-writer-spec.read']]);
    });

    it('asks the lock for the least role of the change: the owner’s for a project’s delete', async () => {
      const failed = writer.write(SCOPE, { ...CHANGE, least: 'owner' }, (write) =>
        write.finish(() => 'done'),
      );
      await expect(failed).rejects.toThrow(new ForbiddenByRoleError('viewer', 'owner'));
      expect(connection.sent[0].params).toMatchObject({ least: 'owner' });
    });
  });

  describe('a lock that finds no project of the account’s', () => {
    beforeEach(() => {
      answering({
        'projects.lock': [],
        'tree-writer-spec.read': [],
        'idempotency-keys.forget-expired': [],
        'idempotency-keys.claim': [{ claimed: true }],
      });
    });

    it('fails the write with ResourceNotFoundError(Project), so that it rolls back, though the work succeeded', async () => {
      const work = jest.fn((write: LockedRound) => write.finish(() => 'done'));
      await expect(writer.write(SCOPE, CHANGE, work)).rejects.toThrow(
        new ResourceNotFoundError('Project'),
      );
      expect(work).toHaveBeenCalledTimes(1);
      await expect(transaction.mock.results[0].value).rejects.toBeInstanceOf(ResourceNotFoundError);
    });

    const FAILURES = [
      ['a node of the path not found', new ResourceNotFoundError('Block')],
      ['a failed If-Match', new PreconditionFailedError('"r5"')],
      ['an unexpected error', new Error('blocks.insert: the project found under the lock is gone')],
    ] as const;

    it.each(FAILURES)(
      'answers Project not found when the work failed at once with %s',
      async (_name, failure) => {
        const failed = writer.write(SCOPE, CHANGE, () => {
          throw failure;
        });
        await expect(failed).rejects.toBeInstanceOf(ResourceNotFoundError);
        await expect(failed).rejects.toThrow('Project not found');
      },
    );

    it.each(FAILURES)(
      'answers Project not found when the work’s continuation would fail with %s',
      async (_name, failure) => {
        const failed = writer.write(SCOPE, CHANGE, (write) => {
          write.row(READ, { id: 1 });
          return write.finish(() => {
            throw failure;
          });
        });
        await expect(failed).rejects.toBeInstanceOf(ResourceNotFoundError);
        await expect(failed).rejects.toThrow('Project not found');
      },
    );

    it('runs none of the work’s continuations, so its next round is never sent', async () => {
      const continuation = jest.fn(() => 'read');
      const failed = writer.write(SCOPE, CHANGE, (write) => {
        write.row(READ, { id: 1 });
        return write.next((next) => {
          next.row(WRITE, { n: 1 });
          return next.finish(continuation);
        });
      });
      await expect(failed).rejects.toThrow(new ResourceNotFoundError('Project'));
      expect(continuation).not.toHaveBeenCalled();
      expect(connection.rounds).toEqual([['projects.lock', 'tree-writer-spec.read']]);
    });

    it('answers Project not found with an idempotency request too, and never runs the work', async () => {
      const work = representingWork();
      await expect(writer.write(SCOPE, CHANGE, work, IDEMPOTENT)).rejects.toThrow(
        new ResourceNotFoundError('Project'),
      );
      expect(work).not.toHaveBeenCalled();
    });
  });

  describe('a lock that fails (a database error)', () => {
    const broken = new Error('canceling statement due to statement timeout');

    beforeEach(() => {
      answering({
        'projects.lock': broken,
        'tree-writer-spec.read': [{ n: 1 }],
      });
    });

    it('fails the write with the lock’s error though the work succeeded', async () => {
      await expect(writer.write(SCOPE, CHANGE, reading)).rejects.toBe(broken);
      await expect(transaction.mock.results[0].value).rejects.toBe(broken);
    });

    it('fails the write with the lock’s error, not the one its statements met after it', async () => {
      const aborted = new Error('current transaction is aborted');
      answering({ 'projects.lock': broken, 'tree-writer-spec.read': aborted });
      await expect(writer.write(SCOPE, CHANGE, reading)).rejects.toBe(broken);
    });

    it('runs none of the work’s continuations', async () => {
      const continuation = jest.fn(() => 'read');
      await expect(
        writer.write(SCOPE, CHANGE, (write) => {
          write.row(READ, { id: 1 });
          return write.finish(continuation);
        }),
      ).rejects.toBe(broken);
      expect(continuation).not.toHaveBeenCalled();
    });
  });

  describe('with an idempotency request', () => {
    let representing: ReturnType<typeof representingWork>;

    beforeEach(() => {
      representing = representingWork();
      answering({
        'projects.lock': [FOUND],
        'idempotency-keys.forget-expired': [],
        'idempotency-keys.claim': [{ claimed: true }],
        'tree-writer-spec.read': [{ n: 1 }],
        'idempotency-keys.remember': [],
      });
    });

    it('claims the key in the lock’s round and runs the work in the next, then keeps its answer with the status given', async () => {
      const result = writer.write(SCOPE, CHANGE, representing, IDEMPOTENT, 200);

      expect(connection.rounds).toEqual([
        ['projects.lock', 'idempotency-keys.forget-expired', 'idempotency-keys.claim'],
      ]);
      expect(representing).not.toHaveBeenCalled();

      const answer = await result;
      expect(representing).toHaveBeenCalledTimes(1);
      expect(answer.body?.text).toBe('{"n":1}');
      expect(answer.headers).toEqual({
        etag: '"r8"',
        projectRevision: 8,
        location: '/projects/p1/blocks/b9',
      });
      expect(connection.rounds).toEqual([
        ['projects.lock', 'idempotency-keys.forget-expired', 'idempotency-keys.claim'],
        ['tree-writer-spec.read'],
        ['idempotency-keys.remember'],
      ]);
      const claim = connection.sent.find((s) => s.statement.name === 'idempotency-keys.claim');
      expect(claim?.params).toEqual({
        accountId: 'acc-1',
        key: IDEMPOTENT.key,
        fingerprint: IDEMPOTENT.fingerprint,
      });
      const kept = connection.sent.find((s) => s.statement.name === 'idempotency-keys.remember');
      expect(kept?.params).toEqual({
        accountId: 'acc-1',
        key: IDEMPOTENT.key,
        status: 200,
        body: '{"n":1}',
        etag: '"r8"',
        location: '/projects/p1/blocks/b9',
        projectRevision: 8,
      });
    });

    it('keeps the answer of a create with 201 when no status is given', async () => {
      await writer.write(SCOPE, CHANGE, representing, IDEMPOTENT);
      const kept = connection.sent.find((s) => s.statement.name === 'idempotency-keys.remember');
      expect(kept?.params).toMatchObject({ status: 201 });
    });

    it('replays the answer kept with a key taken already, without running the work', async () => {
      answering({
        'projects.lock': [FOUND],
        'idempotency-keys.forget-expired': [],
        'idempotency-keys.claim': [],
        'idempotency-keys.find': [
          {
            fingerprint: IDEMPOTENT.fingerprint,
            status: 200,
            body: '{"n":1}',
            etag: '"r8"',
            location: '/projects/p1/blocks/b9',
            projectRevision: 8,
          },
        ],
      });
      const answer = await writer.write(SCOPE, CHANGE, representing, IDEMPOTENT, 200);
      expect(representing).not.toHaveBeenCalled();
      expect(answer.body?.text).toBe('{"n":1}');
      expect(answer.headers).toEqual({
        etag: '"r8"',
        projectRevision: 8,
        location: '/projects/p1/blocks/b9',
      });
    });
  });
});
