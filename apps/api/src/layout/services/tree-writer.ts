import { Inject, Injectable } from '@nestjs/common';
import { hasRole } from '@layout/contracts';
import { ForbiddenByRoleError } from '../../members/errors';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { type IdempotencyRequest } from '../../common/http/idempotency';
import { Representation } from '../../common/http/representation';
import { Database } from '../../database/database';
import { type Pending, type Round, type Step } from '../../database/unit-of-work';
import { type LockedProject, type LockedRound } from '../locked-round';
import { type ProjectScope } from '../layout.scopes';
import { IdempotencyKeysRepository } from '../repositories/idempotency-keys.repository';
import { ChangeAnnouncer } from '../events/change-announcer';
import { Metrics } from '../../metrics/metrics';
import { type TreeChange } from '../layout.changes';
import { ProjectsRepository } from '../repositories/projects.repository';
import { answerOnce } from './answer-once';
import { notFound } from './not-found';

/** The work of a write: its first round's statements, and what follows from their answers. */
export type TreeWork<T> = (write: LockedRound) => Step<T>;

/**
 * The unit of work of every change beneath a project: one transaction whose first statement
 * locks the project row (which checks the caller's role, the one the change needs, and
 * serialises the project's writers), then
 * the service's statements and rules. Everything commits together, with the project's next
 * revision; a rule that throws rolls it all back, so a refused request changes nothing and
 * takes no revision. The service's statements go out right behind the lock, without waiting
 * for its answer (a statement behind a lock that found no project of the caller's changes
 * nothing); its rules run once they have all answered, the lock first: a project that is not
 * the caller's answers 404 whatever the statements found.
 *
 * Writes of one project that meet share a transaction (Database.transaction's group), each
 * still alone in its savepoint with its own lock statement, revision and rules: they queue in
 * this process instead of each holding a connection on the lock, run back to back, and commit
 * together. A work's shape (unit-of-work.ts) is what makes that safe.
 */
@Injectable()
export class TreeWriter {
  private readonly historyRevisions: number;

  constructor(
    private readonly db: Database,
    private readonly projects: ProjectsRepository,
    private readonly keys: IdempotencyKeysRepository,
    private readonly announcer: ChangeAnnouncer,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly metrics: Metrics,
  ) {
    this.historyRevisions = config.history.revisions;
  }

  /**
   * Runs `work` behind the project's lock; if it changes the tree, its revision is recorded in
   * the project's history as `change` (by the database, see the migration `history`). With
   * `idempotency` (a create, a move or a copy sent with `Idempotency-Key`), at most once per
   * key: see answerOnce.
   */
  write<T>(scope: ProjectScope, change: TreeChange, work: TreeWork<T>): Promise<T>;
  write<T>(
    scope: ProjectScope,
    change: TreeChange,
    work: TreeWork<Representation<T>>,
    idempotency: IdempotencyRequest | undefined,
    status?: number,
  ): Promise<Representation<T>>;
  write<T>(
    scope: ProjectScope,
    change: TreeChange,
    work: TreeWork<T>,
    idempotency?: IdempotencyRequest,
    status?: number,
  ): Promise<T> {
    const { least, ...described } = change;
    const recorded = { ...described, historyRevisions: this.historyRevisions };
    // The last start's: a start that was discarded and ran again (a group's) locked anew.
    let locked: Pending<LockedProject> | undefined;
    const committed = this.db.transaction((round) => {
      const found = this.projects.lockForWrite(round, scope, recorded, least);
      const project = found.map((locked): LockedProject => {
        if (!locked) notFound('Project');
        const { role, ...rest } = locked;
        if (!hasRole(role, least)) throw new ForbiddenByRoleError(role, least);
        return { ...rest, revision: locked.revision + 1, currentRevision: locked.revision };
      });
      locked = project;
      const write = behindLock(round, project);
      let step: Step<T>;
      try {
        step =
          idempotency === undefined
            ? work(write)
            : (answerOnce(
                write,
                this.keys,
                scope.accountId,
                idempotency,
                work as TreeWork<Representation<unknown>>,
                status,
              ) as unknown as Step<T>);
      } catch (error) {
        step = round.finish<T>(() => {
          throw error;
        });
      }
      // The lock's verdict goes first: a project the caller is no member of is a 404, one it may
      // not write a 403, whatever else.
      return step.checkedFirst(() => project.get());
    }, projectGroup(scope));
    // Once committed, the project's event streams on every instance read its history again.
    return committed.then((answer) => {
      this.announcer.announce(scope.projectId);
      if (locked !== undefined && createdRevision(answer, locked.get())) {
        this.metrics.revisionCommitted();
      }
      return answer;
    });
  }
}

/**
 * Whether a committed write created the revision its lock set aside: its answer names that
 * revision in `Project-Revision` (a write that changed nothing names the current one, and a
 * replay the one it made then).
 */
function createdRevision(answer: unknown, project: LockedProject): boolean {
  return answer instanceof Representation && answer.headers.projectRevision === project.revision;
}

/**
 * `round`, behind the project's lock: the one place a LockedRound is made (see LockedRound),
 * as are the rounds that follow it.
 */
function behindLock(round: Round, project: Pending<LockedProject>): LockedRound {
  const write: Pick<LockedRound, 'project' | 'rows' | 'row' | 'finish' | 'next' | 'andThen'> = {
    project,
    rows: (statement, params) => round.rows(statement, params),
    row: (statement, params) => round.row(statement, params),
    finish: (answer) => round.finish(answer),
    next: (next) => round.next((following) => next(behindLock(following, project))),
    andThen: (step, more) =>
      step.andThen((value, following) => more(value, behindLock(following, project))),
  };
  return write as LockedRound;
}

/** The writes of one project by one account: those may share a transaction. */
function projectGroup(scope: ProjectScope): string {
  return `${scope.accountId}/${scope.projectId}`;
}
