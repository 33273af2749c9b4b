import { type PoolClient } from 'pg';
import { DatabaseUnavailableError } from '../common/errors';
import { isDatabaseUnavailable } from '../common/errors/database-unavailability';
import { destroyConnection, holdWrites, warnOfBrokenConnection } from './database-pool';
import { type Deadlines } from './deadlines';
import { run } from './group-transaction';
import { type CheckStatement } from './sql-statement';

/** The connection that the checks in flight share, while they are. */
interface Lane {
  readonly connecting: Promise<PoolClient>;
  /** Checks that joined it and have not settled. */
  pending: number;
  /** Sends held until the end of this turn of the event loop. */
  release: (() => void) | undefined;
  /** It failed, or a deadline tore it down: it takes no more checks, and the pool drops it. */
  broken: Error | undefined;
}

/**
 * Runs checks (CheckStatement) pipelined on one pooled connection, the checks that come in one
 * turn of the event loop sent in one write. On loopback every write to PostgreSQL is a system
 * call that also wakes a backend, and a check's statement costs PostgreSQL less than that: read
 * after read on their own connections, the writes were the largest cost of a kept document's
 * answer. The connection goes back to the pool as soon as no check is in flight, so a pool of
 * one still serves everything else in turn.
 *
 * Every check keeps its own deadline. A connection that one of them finds frozen is torn down,
 * with the checks in flight behind it: they were waiting on the same frozen server.
 */
export class CheckLane {
  private lane: Lane | undefined;

  constructor(
    private readonly connect: (waitMs: number) => Promise<PoolClient>,
    private readonly deadlines: Deadlines,
  ) {}

  async run<P extends object, R>(
    statement: CheckStatement<P, R>,
    params: P,
    deadlineMs: number,
  ): Promise<R[]> {
    const startedAt = Date.now();
    const remaining = () => deadlineMs - (Date.now() - startedAt);
    const lane = (this.lane ??= this.open(deadlineMs));
    lane.pending++;
    try {
      const client = await lane.connecting;
      if (lane.broken) throw new DatabaseUnavailableError();
      lane.release ??= this.holdUntilNextTurn(lane, client);
      let expired = false;
      const settled = this.deadlines.watch(remaining(), () => {
        expired = true;
        this.retire(lane, new DatabaseUnavailableError());
        destroyConnection(client);
      });
      try {
        return await run(client, statement, params);
      } catch (error) {
        if (expired) throw new DatabaseUnavailableError();
        if (isDatabaseUnavailable(error)) this.retire(lane, error as Error);
        throw error;
      } finally {
        settled();
      }
    } finally {
      if (--lane.pending === 0) this.close(lane);
    }
  }

  private open(waitMs: number): Lane {
    const connecting = this.connect(waitMs).then((client) => {
      client.on('error', warnOfBrokenConnection);
      return client;
    });
    const lane: Lane = { connecting, pending: 0, release: undefined, broken: undefined };
    // A connection that never came fails its checks; nothing is left to give back.
    connecting.catch(() => this.retire(lane, new DatabaseUnavailableError()));
    return lane;
  }

  /**
   * Holds what is sent on the connection until the event loop's next check phase: by then the
   * requests that arrived in this turn have sent their checks.
   */
  private holdUntilNextTurn(lane: Lane, client: PoolClient): () => void {
    const release = holdWrites(client);
    setImmediate(() => {
      if (lane.release === release) lane.release = undefined;
      release();
    });
    return release;
  }

  private retire(lane: Lane, error: Error): void {
    lane.broken ??= error;
    if (this.lane === lane) this.lane = undefined;
  }

  /** No check is in flight on it: the connection goes back to the pool (dropped if broken). */
  private close(lane: Lane): void {
    if (this.lane === lane) this.lane = undefined;
    lane.release?.();
    lane.connecting.then(
      (client) => {
        client.removeListener('error', warnOfBrokenConnection);
        client.release(lane.broken);
      },
      () => undefined,
    );
  }
}
