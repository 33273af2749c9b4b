import { type CheckStatement, type SqlStatement } from './sql-statement';

/**
 * Where statements run: the pool (one statement, any connection) or one transaction. The layout
 * repositories take one, so the same statement serves a read and the inside of a write.
 */
export interface SqlSession {
  /** Every row the statement returns. */
  rows<P extends object, R>(statement: SqlStatement<P, R>, params: P): Promise<R[]>;
  /** The first row, or undefined when there is none. */
  row<P extends object, R>(statement: SqlStatement<P, R>, params: P): Promise<R | undefined>;
  /**
   * The first row of a check (CheckStatement), sent with the other checks of this turn of the
   * event loop on one shared connection.
   */
  check<P extends object, R>(statement: CheckStatement<P, R>, params: P): Promise<R | undefined>;
  /**
   * Admits an answer of `bytes` that no statement built for it (a document kept from an
   * earlier read): a large one takes its account's share of the heavy reads as a built one
   * does, or is refused (503) past it.
   */
  admitKept(bytes: number): Promise<void>;
}
