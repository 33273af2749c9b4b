import { type SendStatement, type StartedWork } from './unit-of-work';

/**
 * Starts a unit of work on the transaction's connection (see startWork), in its own caller's
 * async context, so that its continuations, whichever group runs them, log as its request.
 */
export type StartUnit<T> = (
  send: SendStatement,
  stopped: () => Error | undefined,
) => StartedWork<T>;

/** A unit of work waiting in a group, and the settlers of its caller's promise. */
export interface GroupUnit {
  readonly start: StartUnit<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export interface GroupLimits {
  /**
   * Units one transaction takes at most. Every unit after the first runs in a savepoint, a
   * subtransaction; PostgreSQL keeps up to 64 of a transaction's subtransaction ids in shared
   * memory, and past that every other session's snapshot checks get slower.
   */
  readonly maxUnits: number;
  /** How long after it opened a group still takes units: they all share its deadline. */
  readonly joinWithinMs: number;
}

/**
 * The units of work of one key (a project's writes) that meet while the group's transaction
 * waits for its turn or runs: they run in it, one after another, and commit together. The
 * queue alone: GroupTransaction runs them.
 */
export class TransactionGroup {
  private readonly waiting: GroupUnit[] = [];
  private taken = 0;
  private closed = false;
  private readonly openedAt = Date.now();
  /** Resolved by the next join, for whoever waits for one. */
  private nextJoin: { promise: Promise<void>; resolve: () => void } | undefined;

  constructor(private readonly limits: GroupLimits) {}

  /** Whether `join` would take a unit now. */
  takesMore(): boolean {
    return (
      !this.closed &&
      this.taken + this.waiting.length < this.limits.maxUnits &&
      Date.now() - this.openedAt <= this.limits.joinWithinMs
    );
  }

  /** Queues a unit and answers its outcome; undefined when the group takes no more units. */
  join<T>(start: StartUnit<T>): Promise<T> | undefined {
    if (!this.takesMore()) return undefined;
    const outcome = new Promise<T>((resolve, reject) => {
      this.waiting.push({ start, resolve, reject });
    });
    this.nextJoin?.resolve();
    this.nextJoin = undefined;
    return outcome;
  }

  /** The next unit that waits, if any. */
  take(): GroupUnit | undefined {
    const unit = this.waiting.shift();
    if (unit !== undefined) this.taken += 1;
    return unit;
  }

  /** Resolves when a unit waits (at once if one does). */
  untilJoined(): Promise<void> {
    if (this.waiting.length > 0) return Promise.resolve();
    if (this.nextJoin === undefined) {
      let resolve!: () => void;
      const promise = new Promise<void>((settle) => (resolve = settle));
      this.nextJoin = { promise, resolve };
    }
    return this.nextJoin.promise;
  }

  /**
   * Closes the group if no unit waits, and says whether it did: a unit that comes later
   * starts a group of its own (which waits for this one's commit on the database's lock).
   */
  close(): boolean {
    if (this.waiting.length > 0) return false;
    this.closed = true;
    return true;
  }

  /** Closes the group and fails every unit that has not been taken. */
  abandon(error: unknown): void {
    this.closed = true;
    for (const unit of this.waiting.splice(0)) unit.reject(error);
  }
}
