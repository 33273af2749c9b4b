import { Inject, Injectable } from '@nestjs/common';
import { type Pool, type PoolClient } from 'pg';
import { DatabaseUnavailableError, DomainError, WriteOutcomeUnknownError } from '../common/errors';
import { watchClientGone } from '../common/http/client-gone';
import { currentRequest } from '../common/logging/request-context';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Admission } from './admission';
import { Deadlines } from './deadlines';
import { isDatabaseUnavailable } from './database-errors';
import { HeavyStatements } from './heavy-statements';
import { DATABASE_POOL, destroyConnection, warnOfBrokenConnection } from './database-pool';
import { type SqlSession } from './sql-session';
import { bindParameters, type SqlStatement } from './sql-statement';

/** Requests made outside any account (none touch the tree today) share one place in line. */
const NO_ACCOUNT = '';
/** How late a deadline may fire, at most (see Deadlines). */
const DEADLINE_TICK_MS = 100;

/**
 * Hand-written SQL on the pool: single statements, and `transaction`, the one unit of work of
 * the services that write with it. Prisma keeps the schema, the migrations and the accounts'
 * queries; the layout tree runs here (see the README's "Decisions worth knowing").
 *
 * Every call has one deadline, DATABASE_TIMEOUT_MS from its start, for waiting its turn,
 * getting a connection and running its statements: past it the connection is torn down (a
 * frozen server answers nothing, not even a ROLLBACK) and the caller gets a 503. And every
 * account is admitted to at most its share of the pool, and of the heavy reads (Admission), so
 * that one account's requests never take what everybody else's need: past its share a call
 * waits for at most half the deadline, then answers 503 with Retry-After.
 */
@Injectable()
export class Database implements SqlSession {
  private readonly admission: Admission;
  private readonly heavy = new HeavyStatements();
  private readonly timeoutMs: number;
  private readonly deadlines: Deadlines;

  constructor(
    @Inject(DATABASE_POOL) private readonly pool: Pool,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.timeoutMs = config.database.timeoutMs;
    this.admission = new Admission(config.database.poolSize);
    this.deadlines = new Deadlines(Math.min(DEADLINE_TICK_MS, this.timeoutMs / 4));
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

  /**
   * Runs `work` in one transaction on one pooled connection: committed when it returns, rolled
   * back when it throws (a domain error included), and the error rethrown. When the database
   * fails after COMMIT was sent, nobody knows whether it committed: that is said, not hidden
   * behind a failure.
   */
  async transaction<T>(work: (tx: SqlSession) => Promise<T>): Promise<T> {
    return this.onConnection(async (client, discard) => {
      let committing = false;
      try {
        // The pool pipelines (database-pool.ts): BEGIN and the work's first statements go out
        // together, without waiting for each other's answers.
        const [, result] = await Promise.all([client.query('BEGIN'), work(sessionOn(client))]);
        committing = true;
        await client.query('COMMIT');
        return result;
      } catch (error) {
        if (committing && isDatabaseUnavailable(error)) throw new WriteOutcomeUnknownError();
        // A broken connection is dropped by onConnection: PostgreSQL rolls back on its own.
        // Nothing was committed, so the work's own error stays the answer even when the
        // ROLLBACK fails; only the connection is not to be trusted any more.
        if (!isDatabaseUnavailable(error)) await client.query('ROLLBACK').catch(discard);
        throw error;
      }
    });
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
  ): Promise<T> {
    const startedAt = Date.now();
    const remaining = () => this.timeoutMs - (Date.now() - startedAt);
    const account = currentAccount();
    const leave =
      this.admission.tryAdmit(account, heavy) ?? (await this.admitWaiting(account, heavy));
    try {
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

function sessionOn(client: PoolClient): SqlSession {
  return {
    rows: (statement, params) => run(client, statement, params),
    row: async (statement, params) => (await run(client, statement, params))[0],
  };
}

async function run<P extends object, R>(
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
