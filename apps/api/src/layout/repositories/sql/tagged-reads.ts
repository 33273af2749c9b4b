import { type SqlSession } from '../../../database/sql-session';
import { sqlStatement, type SqlStatement } from '../../../database/sql-statement';
import { type Pending, type Round } from '../../../database/unit-of-work';

export interface TaggedDocument {
  revision: number;
  json: string;
}

/**
 * The two reads of one resource: its document with its revision, and the revision alone. The
 * document and its revision come from one statement, so a tag is never older or newer than the
 * body it is sent with; the revision alone answers a conditional read without building anything.
 */
export class TaggedReads<P extends object> {
  readonly documentStatement: SqlStatement<P, TaggedDocument>;
  readonly revisionStatement: SqlStatement<P, { revision: number }>;

  /**
   * `name` prefixes the statements' names (`<repository>.<resource>`); `match` is a `FROM …
   * WHERE …` clause (paths.sql.ts), `revision` the column that versions the representation and
   * `json` its document.
   */
  constructor(name: string, match: string, revision: string, json: string) {
    this.documentStatement = sqlStatement(
      `${name}.document`,
      `SELECT ${revision} AS revision, (${json})::text AS json ${match}`,
    );
    this.revisionStatement = sqlStatement(
      `${name}.revision`,
      `SELECT ${revision} AS revision ${match}`,
    );
  }

  document(db: SqlSession, params: P): Promise<TaggedDocument | undefined> {
    return db.row(this.documentStatement, params);
  }

  /** The document, read inside a write (under its lock). */
  documentIn(round: Round, params: P): Pending<TaggedDocument | undefined> {
    return round.row(this.documentStatement, params);
  }

  async revision(db: SqlSession, params: P): Promise<number | undefined> {
    return (await db.row(this.revisionStatement, params))?.revision;
  }
}
