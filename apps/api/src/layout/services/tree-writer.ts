import { Injectable } from '@nestjs/common';
import { Database } from '../../database/database';
import { type SqlSession } from '../../database/sql-session';
import { type ProjectScope } from '../layout.scopes';
import { type IdempotencyRequest } from '../../common/http/idempotency';
import { type Representation } from '../../common/http/representation';
import { IdempotencyKeysRepository } from '../repositories/idempotency-keys.repository';
import { ProjectsRepository } from '../repositories/projects.repository';
import { createIdempotently } from './idempotent-create';
import { notFound } from './not-found';

/** The project of a write, as its lock found it. */
export interface LockedProject {
  /** The revision this write creates if it changes anything. */
  readonly revision: number;
  /** The project's revision before it: what the write answers when it changed nothing. */
  readonly currentRevision: number;
  readonly title: string;
  /** Bytes of the project's whole JSON answer before the write. */
  readonly treeBytes: number;
}

/** One write of a project's tree, inside its transaction and behind the project's lock. */
export interface TreeWrite {
  readonly tx: SqlSession;
  /**
   * The locked project. Statements need not wait for it: sent right away, they run after the
   * lock on the transaction's connection (pipelined), and change nothing in a project that is
   * not the caller's.
   */
  readonly project: Promise<LockedProject>;
}

/**
 * The unit of work of every change beneath a project: one transaction that first locks the
 * project row (which checks the owner and serialises the project's writers), then runs the
 * service's statements and rules. Everything commits together, with the project's next
 * revision; a rule that throws rolls it all back, so a refused request changes nothing and
 * takes no revision. Writes of one project that meet share a transaction
 * (Database.transaction's group), each still alone in its savepoint with its own lock
 * statement, revision and rules: they queue in this process instead of each holding a
 * connection on the lock, run back to back, and commit together instead of one WAL flush
 * after another. So a `work` may be started more than once (a start behind one that failed
 * is discarded and run again): it must do nothing but send its statements and work out its
 * answer from theirs. `If-Match` is checked in `work` against a tag read under this lock, so
 * it is atomic with the change. A project that is not the caller's answers 404, whatever
 * `work` made of its statements, which then changed nothing.
 */
@Injectable()
export class TreeWriter {
  constructor(
    private readonly db: Database,
    private readonly projects: ProjectsRepository,
    private readonly keys: IdempotencyKeysRepository,
  ) {}

  write<T>(scope: ProjectScope, work: (write: TreeWrite) => Promise<T>): Promise<T>;
  /** A create that honours `Idempotency-Key` (see createIdempotently). */
  write<T>(
    scope: ProjectScope,
    work: (write: TreeWrite) => Promise<Representation<T>>,
    idempotency: IdempotencyRequest | undefined,
  ): Promise<Representation<T>>;
  write<T>(
    scope: ProjectScope,
    work: (write: TreeWrite) => Promise<T>,
    idempotency?: IdempotencyRequest,
  ): Promise<T> {
    return this.db.transaction(async (tx) => {
      const project = this.projects.lockForWrite(tx, scope).then((found) => {
        if (!found) return notFound('Project');
        return { ...found, revision: found.revision + 1, currentRevision: found.revision };
      });
      const run = () => work({ tx, project });
      // An async wrapper, so that even a work that throws at once waits for the lock's answer.
      const working = (async () =>
        idempotency === undefined
          ? run()
          : (createIdempotently(
              tx,
              this.keys,
              scope.accountId,
              idempotency,
              run as () => Promise<Representation<unknown>>,
            ) as Promise<T>))();
      const [locked, done] = await Promise.allSettled([project, working]);
      if (locked.status === 'rejected') throw locked.reason;
      if (done.status === 'rejected') throw done.reason;
      return done.value;
    }, projectGroup(scope));
  }
}

/** The writes of one project by one account: those may share a transaction. */
function projectGroup(scope: ProjectScope): string {
  return `${scope.accountId}/${scope.projectId}`;
}
