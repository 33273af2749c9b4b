import { AsyncLocalStorage } from 'node:async_hooks';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { type Pool, type PoolClient } from 'pg';
import { DatabaseUnavailableError, DomainError, WriteOutcomeUnknownError } from '../common/errors';
import { watchClientGone } from '../common/http/client-gone';
import { currentRequest } from '../common/logging/request-context';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Admission, NO_ACCOUNT } from './admission';
import { Deadlines } from './deadlines';
import { isDatabaseUnavailable } from '../common/errors/database-unavailability';
import { HEAVY_ANSWER_BYTES, HeavyStatements } from './heavy-statements';
import { DATABASE_POOL, destroyConnection, warnOfBrokenConnection } from './database-pool';
import { type SqlSession } from './sql-session';
import { GroupTransaction, run } from './group-transaction';
import { type GroupLimits, TransactionGroup } from './transaction-group';
import { type CheckStatement, type SqlStatement } from './sql-statement';
import { CheckLane } from './check-lane';
import { type SendStatement, startWork, type Work } from './unit-of-work';
import {
  COMMIT_OBSERVER,
  type CommitObserver,
  type TracedUnit,
  UNIT_OF_WORK_TRACER,
  type UnitOfWorkTracer,
} from './transaction-observers';

/** How late a deadline may fire, at most (see Deadlines). */
const DEADLINE_TICK_MS = 100;
/** Units of work one grouped transaction takes at most (see GroupLimits). */
const GROUP_MAX_UNITS = 32;

/**
 * Hand-written SQL on the pool: single statements, and `transaction`, the one unit of work of
 * the services that write with it. Prisma keeps the schema, the migrations and the accounts'
 * queries; the layout tree runs here (see docs/decisions.md).
 *
 * Every call has one deadline, DATABASE_TIMEOUT_MS from its start, for waiting its turn,
 * getting a connection and running its statements: past it the connection is torn down (a
 * frozen server answers nothing, not even a ROLLBACK) and the caller gets a 503. And every
 * account is admitted to at most its share of the pool, and of the heavy reads (Admission),
 * those it is answered from documents kept by earlier reads included (`admitKept`), so that
 * one account's requests never take what everybody else's need: past its share a call waits
 * for at most half the deadline, then answers 503 with Retry-After.
 */
@Injectable()
export class Database implements SqlSession {
  private readonly admission: Admission;
  private readonly heavy = new HeavyStatements();
  private readonly timeoutMs: number;
  private readonly deadlines: Deadlines;
  /** By key, the grouped transaction that takes more units of work now. */
  private readonly groups = new Map<string, TransactionGroup>();
  private readonly groupLimits: GroupLimits;
  private readonly checks: CheckLane;

  constructor(
    @Inject(DATABASE_POOL) private readonly pool: Pool,
    @Inject(APP_CONFIG) config: AppConfig,
    @Optional() @Inject(COMMIT_OBSERVER) private readonly commits?: CommitObserver,
    @Optional() @Inject(UNIT_OF_WORK_TRACER) private readonly tracer?: UnitOfWorkTracer,
  ) {
    this.timeoutMs = config.database.timeoutMs;
    this.admission = new Admission(config.database.poolSize);
    this.deadlines = new Deadlines(Math.min(DEADLINE_TICK_MS, this.timeoutMs / 4));
    // A unit that joins late still has most of the group's deadline (the first unit's) to run.
    this.groupLimits = { maxUnits: GROUP_MAX_UNITS, joinWithinMs: this.timeoutMs / 4 };
    this.checks = new CheckLane((waitMs) => this.connect(waitMs), this.deadlines);
  }

  async rows<P extends object, R>(statement: SqlStatement<P, R>, params: P): Promise<R[]> {
    const rows = await this.onConnection(
      (client) => run(client, statement, params),
      this.heavy.isHeavy(statement.name, params),
    );
    const heavyBytes = this.heavy.record(statement.name, params, rows);
    if (heavyBytes > 0) this.admission.charge(currentAccount(), heavyBytes);
    return rows;
  }

  async row<P extends object, R>(statement: SqlStatement<P, R>, params: P): Promise<R | undefined> {
    return (await this.rows(statement, params))[0];
  }

  async check<P extends object, R>(
    statement: CheckStatement<P, R>,
    params: P,
  ): Promise<R | undefined> {
    const startedAt = Date.now();
    const account = currentAccount();
    // The account's place, as for any statement: its checks wait their turn past its share.
    const leave =
      this.admission.tryAdmit(account, false) ?? (await this.admitWaiting(account, false));
    try {
      const rows = await this.checks.run(
        statement,
        params,
        this.timeoutMs - (Date.now() - startedAt),
      );
      return rows[0];
    } finally {
      leave();
    }
  }

  async admitKept(bytes: number): Promise<void> {
    if (bytes < HEAVY_ANSWER_BYTES) return;
    const client = watchClientGone(currentRequest());
    try {
      await this.admission.admitKept(currentAccount(), bytes, this.timeoutMs / 2, client?.signal);
    } finally {
      client?.stop();
    }
  }

  /**
   * Runs `work` in one transaction on one pooled connection: committed when it returns, rolled
   * back when it throws (a domain error included), and the error rethrown. When the database
   * fails after COMMIT was sent, nobody knows whether it committed: that is said, not hidden
   * behind a failure.
   *
   * With a `group` key (the writes of one project, which take one lock), works of that key
   * that come while its transaction waits for its turn or runs share it, a group commit (see
   * GroupTransaction): each runs alone, in the order they came, seeing what the ones before it
   * did, in a savepoint of its own, so that one that throws is rolled back alone; they are
   * pipelined on the connection, and the ones that stand commit together, with one WAL flush
   * instead of one each. Nothing is answered before that COMMIT. A work is the shape that
   * makes this safe (unit-of-work.ts): it sends its statements round by round and works out
   * its answer from theirs, so a start can be discarded and run again.
   */
  transaction<T>(work: Work<T>, group?: string): Promise<T> {
    if (this.tracer === undefined) return this.take(work, group);
    const traced = this.tracer.begin();
    return traced
      .within(() => this.take(work, group, traced))
      .then(
        (answer) => {
          traced.end();
          return answer;
        },
        (error: unknown) => {
          traced.end(error);
          throw error;
        },
      );
  }

  /** Queues `work` in its group's transaction, or opens one: see `transaction`. */
  private take<T>(work: Work<T>, group: string | undefined, traced?: TracedUnit): Promise<T> {
    // A unit runs in its group's turn, its continuations too: in its own caller's async
    // context (its request, which the log lines name).
    const inCallersContext = AsyncLocalStorage.snapshot();
    const start = (send: SendStatement, stopped: () => Error | undefined) =>
      inCallersContext(() =>
        startWork(work, traced === undefined ? send : traced.noting(send), stopped),
      );
    const open = group === undefined ? undefined : this.groups.get(group);
    const joined = open?.takesMore() ? open.join(start) : undefined;
    if (joined) return joined;
    const own = new TransactionGroup(this.groupLimits);
    const answer = own.join(start) as Promise<T>;
    void this.runGroup(own, group);
    return answer;
  }

  /** Runs a group's units in one transaction (see GroupTransaction), then answers each. */
  private async runGroup(group: TransactionGroup, key: string | undefined): Promise<void> {
    let transaction: GroupTransaction | undefined;
    try {
      // Once admitted, others may join: while this waits for a connection, then for its lock
      // (on the same tick, when admitted at once). Not before: a wait for its account's place
      // ends when its own client goes away, which is no reason to refuse the others.
      const open = () => {
        if (key !== undefined && !this.groups.get(key)?.takesMore()) this.groups.set(key, group);
      };
      await this.onConnection(
        async (client, discard) => {
          transaction = new GroupTransaction(client, group);
          try {
            await transaction.run();
          } catch (error) {
            // Whatever broke the transaction, the connection's state is not to be trusted.
            discard();
            throw error;
          }
        },
        false,
        open,
      );
    } catch (error) {
      group.abandon(error);
      for (const unit of transaction?.unanswered() ?? []) unit.reject(error);
      // Their changes are rolled back for sure, whatever became of the COMMIT; their reasons
      // may rest on what did not commit: asked again, they get the true answer.
      const retry =
        error instanceof WriteOutcomeUnknownError ? new DatabaseUnavailableError() : error;
      for (const [unit] of transaction?.refused ?? []) unit.reject(retry);
      return;
    } finally {
      if (key !== undefined && this.groups.get(key) === group) this.groups.delete(key);
    }
    const stand = transaction?.stand ?? [];
    if (stand.length > 0) this.commits?.committed(stand.length);
    for (const [unit, value] of stand) unit.resolve(value);
    for (const [unit, error] of transaction?.refused ?? []) unit.reject(error);
  }

  /** Waits for the account's place, but no longer than its client stays connected. */
  private async admitWaiting(account: string, heavy: boolean): Promise<() => void> {
    const client = watchClientGone(currentRequest());
    try {
      return await this.admission.admit(account, heavy, this.timeoutMs / 2, client?.signal);
    } finally {
      client?.stop();
    }
  }

  /**
   * Takes the account's place and a pooled connection, runs `use` on it, and gives both back,
   * all within the deadline. A connection that failed, or that the deadline tore down, is
   * dropped from the pool, not reused.
   */
  private async onConnection<T>(
    use: (client: PoolClient, discard: () => void) => Promise<T>,
    heavy = false,
    admitted?: () => void,
  ): Promise<T> {
    const startedAt = Date.now();
    const remaining = () => this.timeoutMs - (Date.now() - startedAt);
    const account = currentAccount();
    // Admitted at once, this runs on synchronously (no await), `admitted` included.
    const leave =
      this.admission.tryAdmit(account, heavy) ?? (await this.admitWaiting(account, heavy));
    try {
      admitted?.();
      const client = await this.connect(remaining());
      client.on('error', warnOfBrokenConnection);
      let broken: Error | undefined;
      let expired = false;
      const settled = this.deadlines.watch(remaining(), () => {
        expired = true;
        broken = new DatabaseUnavailableError();
        destroyConnection(client);
      });
      const discard = () => {
        broken ??= new DatabaseUnavailableError();
      };
      try {
        return await use(client, discard);
      } catch (error) {
        // What the work decided (a rule, an unknown outcome) stands; a statement cut short by
        // the deadline is the database's unavailability.
        if (expired && !(error instanceof DomainError)) throw new DatabaseUnavailableError();
        if (isDatabaseUnavailable(error)) broken ??= error as Error;
        throw error;
      } finally {
        settled();
        client.removeListener('error', warnOfBrokenConnection);
        client.release(broken);
      }
    } finally {
      leave();
    }
  }

  /** A pooled connection, or 503 when none comes within `waitMs`. */
  private async connect(waitMs: number): Promise<PoolClient> {
    // An idle connection is handed over at once: no deadline to race.
    const idleAtHand = this.pool.idleCount > 0 && this.pool.waitingCount === 0;
    const connecting = this.pool.connect();
    if (idleAtHand) return connecting;
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), Math.max(0, waitMs));
    });
    try {
      const client = await Promise.race([connecting, expired]);
      if (client) return client;
    } finally {
      clearTimeout(timer);
    }
    // Too late for this request; whoever is next in the pool's line can have it.
    connecting.then(
      (client) => client.release(),
      () => undefined,
    );
    throw new DatabaseUnavailableError();
  }
}

function currentAccount(): string {
  return currentRequest()?.user?.id ?? NO_ACCOUNT;
}
