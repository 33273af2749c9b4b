import { type ProjectRole } from '@layout/contracts';
import { type Pending, type Round, type Step } from '../database/unit-of-work';

/** The roles that write a project: an editor its tree and title, the owner also its deletion. */
export type WriterRole = Extract<ProjectRole, 'editor' | 'owner'>;

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

declare const heldLock: unique symbol;

/**
 * A round of a unit of work that holds its project's lock: what every statement that writes a
 * project's tree is sent on. Only TreeWriter.write makes one, with the lock as its first
 * statement; a plain Round is not one, so a write of the tree sent outside the lock does not
 * compile. `project` is the project as the lock found it: like every answer, it is read in a
 * continuation, and by then the lock's verdict has been checked (a project that is not the
 * caller's answers 404 first). The rounds that follow it hold the lock too.
 */
export interface LockedRound extends Omit<Round, 'next'> {
  readonly [heldLock]: true;
  readonly project: Pending<LockedProject>;
  /** Once this round has answered, `next` sends the unit's next round, still behind the lock. */
  next<T>(next: (round: LockedRound) => Step<T>): Step<T>;
  /** `step`, then `more` with its answer in a round of its own, still behind the lock. */
  andThen<T, U>(step: Step<T>, more: (value: T, round: LockedRound) => Step<U>): Step<U>;
}
