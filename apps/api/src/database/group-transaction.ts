import { type PoolClient } from 'pg';
import { WriteOutcomeUnknownError } from '../common/errors';
import { isDatabaseUnavailable } from '../common/errors/database-unavailability';
import { holdWrites } from './database-pool';
import { bindParameters, type SqlStatement } from './sql-statement';
import { type GroupUnit, type TransactionGroup } from './transaction-group';
import { type SendStatement } from './unit-of-work';

/** What a discarded start of a unit gets for any statement it still tries to send. */
class DiscardedStart extends Error {
  constructor() {
    super('This start of the unit of work was discarded; it runs again');
  }
}

/** One start of a unit in the transaction. */
interface Start {
  readonly unit: GroupUnit;
  /** The savepoint it runs in; null for the first start of the transaction, which runs in it. */
  readonly savepoint: string | null;
  /** BEGIN or SAVEPOINT: it fails when a start before it failed, which discards this one. */
  readonly opened: Promise<PromiseSettledResult<unknown>>;
  outcome: Promise<PromiseSettledResult<unknown>>;
  /** It declared more rounds after its first (`round.next`): nothing starts behind it. */
  sendsMore: boolean;
  discarded: boolean;
}

/**
 * Runs a group's units of work in one transaction on one connection (see Database.transaction)
 * and commits what stands.
 *
 * Units run in the order they came, each in a savepoint of its own (the first in the
 * transaction itself), and each sees what the ones before it did. They are pipelined: a unit
 * sends its first round when it starts (see unit-of-work.ts), and if that is its only round,
 * the next unit starts at once, its statements queued on the connection right behind, without
 * waiting for the first one's answers or rules. That is a speculation, settled in order: a
 * unit that fails is answered with its error, and rolled back to its savepoint together with
 * every unit started after it, which then start again, one at a time until one of them stands
 * (refusals come in runs: a full project, writers sending the same `If-Match`; pipelined again
 * behind each one, the units would start once more per refusal before them). A unit that
 * declared more rounds (a read, then a write) has nothing started behind it until it settles.
 * Nothing is answered before the COMMIT (or the failure) that decides the transaction.
 */
export class GroupTransaction {
  /** Units that stand, in order, with their answers: committed together. */
  readonly stand: [GroupUnit, unknown][] = [];
  /**
   * Units that threw, with their errors, rolled back. Their errors are answered only once the
   * transaction has committed: they may rest on what the units before them did.
   */
  readonly refused: [GroupUnit, unknown][] = [];
  private readonly started: Start[] = [];
  /** Units whose start was discarded, to start again before any new one. */
  private readonly again: GroupUnit[] = [];
  private open = false;
  /** A unit was refused since the last one stood: no unit starts behind another meanwhile. */
  private refusing = false;
  private savepoints = 0;
  private ended = false;

  constructor(
    private readonly client: PoolClient,
    private readonly group: TransactionGroup,
  ) {}

  /** Every unit taken that stands or has yet to: what a failure of the transaction answers. */
  unanswered(): GroupUnit[] {
    return [...this.stand.map(([unit]) => unit), ...this.started.map((s) => s.unit), ...this.again];
  }

  /**
   * Runs the units until none is left, then commits. Throws when the transaction fails as a
   * whole: then nothing of it is committed (or, past COMMIT, nobody knows).
   */
  async run(): Promise<void> {
    try {
      for (;;) {
        this.startWhatMay();
        const oldest = this.started[0];
        if (oldest === undefined) {
          if (this.again.length === 0 && this.group.close()) break;
          continue;
        }
        // The oldest start's outcome, or new units to pipeline behind the others meanwhile:
        // all that join in this turn of the event loop (the requests read together), so that
        // they leave in one write instead of waking PostgreSQL once each.
        const settled = await Promise.race([
          oldest.outcome,
          ...(this.mayStartAnother() ? [this.group.untilJoined().then(endOfTurn)] : []),
        ]);
        if (settled !== undefined && this.started[0] === oldest) await this.settle(oldest, settled);
      }
      await this.commit();
    } finally {
      this.ended = true;
    }
  }

  /**
   * Starts every unit that may start now. Their first rounds leave in one write, before
   * anything waits for an answer.
   */
  private startWhatMay(): void {
    let release: (() => void) | undefined;
    try {
      while (this.mayStartAnother()) {
        const unit = this.again.shift() ?? this.group.take();
        if (unit === undefined) break;
        release ??= holdWrites(this.client);
        this.start(unit);
      }
    } finally {
      release?.();
    }
  }

  private mayStartAnother(): boolean {
    const last = this.started.at(-1);
    return last === undefined || (!this.refusing && !last.sendsMore);
  }

  private start(unit: GroupUnit): void {
    const savepoint = this.open ? `unit_${++this.savepoints}` : null;
    const opening = savepoint === null ? 'BEGIN' : `SAVEPOINT ${savepoint}`;
    this.open = true;
    const start: Start = {
      unit,
      savepoint,
      opened: settledOutcome(() => this.client.query(opening)),
      outcome: Promise.resolve({ status: 'fulfilled', value: undefined }),
      sendsMore: false,
      discarded: false,
    };
    this.started.push(start);
    const send: SendStatement = (statement, params) => {
      if (start.discarded || this.ended) return Promise.reject(new DiscardedStart());
      return run(this.client, statement, params);
    };
    const work = unit.start(send, () =>
      start.discarded || this.ended ? new DiscardedStart() : undefined,
    );
    start.sendsMore = work.sendsMore;
    start.outcome = settledOutcome(() => work.answer);
  }

  /** The oldest start has settled: it stands, or it fails alone and what followed it reruns. */
  private async settle(start: Start, settled: PromiseSettledResult<unknown>): Promise<void> {
    // All before it stand: its BEGIN or SAVEPOINT had to work.
    const opened = await start.opened;
    if (opened.status === 'rejected') throw opened.reason;
    // The transaction is gone with the connection: the start stays among the unanswered.
    if (settled.status === 'rejected' && isDatabaseUnavailable(settled.reason)) {
      throw settled.reason;
    }
    this.started.shift();
    this.refusing = settled.status === 'rejected';
    if (settled.status === 'fulfilled') {
      this.stand.push([start.unit, settled.value]);
      return;
    }
    this.refused.push([start.unit, settled.reason]);
    this.discard(this.started.splice(0));
    if (start.savepoint === null) {
      await this.client.query('ROLLBACK');
      this.open = false;
    } else {
      await this.client.query(`ROLLBACK TO SAVEPOINT ${start.savepoint}`);
    }
  }

  private discard(starts: Start[]): void {
    for (const start of starts) start.discarded = true;
    this.again.unshift(...starts.map((start) => start.unit));
  }

  private async commit(): Promise<void> {
    if (!this.open) return;
    const committed = await this.client.query('COMMIT').then(
      (result) => result,
      (error: unknown) => {
        if (isDatabaseUnavailable(error)) throw new WriteOutcomeUnknownError();
        throw error;
      },
    );
    // COMMIT of a transaction that an error aborted answers ROLLBACK.
    if (committed.command !== 'COMMIT') throw new Error('COMMIT rolled the transaction back');
  }
}

/** Resolves once this turn of the event loop has run its I/O callbacks (setImmediate). */
function endOfTurn(): Promise<undefined> {
  return new Promise((resolve) => setImmediate(() => resolve(undefined)));
}

/** The work's outcome, never rejected; a work that throws at once is an outcome too. */
function settledOutcome(work: () => Promise<unknown>): Promise<PromiseSettledResult<unknown>> {
  let running: Promise<unknown>;
  try {
    running = work();
  } catch (reason) {
    return Promise.resolve({ status: 'rejected', reason });
  }
  return running.then(
    (value) => ({ status: 'fulfilled', value }),
    (reason: unknown) => ({ status: 'rejected', reason }),
  );
}

export async function run<P extends object, R>(
  client: PoolClient,
  statement: SqlStatement<P, R>,
  params: P,
): Promise<R[]> {
  const result = await client.query({
    name: statement.name,
    text: statement.text,
    values: bindParameters(statement, params),
  });
  return result.rows as R[];
}
