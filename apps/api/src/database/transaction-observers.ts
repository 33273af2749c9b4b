import { type SendStatement } from './unit-of-work';

/**
 * What watches Database's transactions from outside (the metrics, the traces) without Database
 * depending on either. Both are optional: when one is not provided, Database does nothing for
 * it, not even a call.
 */
export const COMMIT_OBSERVER = Symbol('COMMIT_OBSERVER');
export const UNIT_OF_WORK_TRACER = Symbol('UNIT_OF_WORK_TRACER');

export interface CommitObserver {
  /** A transaction committed with `units` units of work standing in it (a group commit's size). */
  committed(units: number): void;
}

export interface UnitOfWorkTracer {
  /** Database.transaction has taken a unit of work; called in its caller's context. */
  begin(): TracedUnit;
}

/** One unit of work, as a trace shows it. */
export interface TracedUnit {
  /**
   * Runs `start` as part of the unit: what it sets going (the unit's statements, and for the
   * unit that opens a transaction, its BEGIN and COMMIT) belongs to the unit.
   */
  within<T>(start: () => T): T;
  /** `send`, noting the name of every statement the unit sends through it. */
  noting(send: SendStatement): SendStatement;
  /** The unit has its answer, or failed with `error`. */
  end(error?: unknown): void;
}
