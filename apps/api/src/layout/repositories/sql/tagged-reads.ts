import { type SqlSession } from '../../../database/sql-session';
import {
  type CheckStatement,
  checkStatement,
  sqlStatement,
  type SqlStatement,
} from '../../../database/sql-statement';
import { type Pending, type Round } from '../../../database/unit-of-work';

export interface TaggedDocument {
  revision: number;
  json: string;
}

/**
 * A document as a read answers it: its text as PostgreSQL built it, or the UTF-8 bytes of that
 * text when they were kept from an earlier read (see CachedReads).
 */
export interface ReadDocument {
  revision: number;
  json: string | Buffer;
}

/**
 * The parameter that names the caller's account. It only checks that the caller is a member of
 * the project (both statements do): it changes nothing in the document, so it is no part of what
 * names the resource.
 */
const CALLER = 'accountId';

/**
 * The two reads of one resource: its document with its revision, and the revision alone. The
 * document and its revision come from one statement, so a tag is never older or newer than the
 * body it is sent with; the revision alone answers a conditional read without building anything.
 */
export class TaggedReads<P extends object> {
  readonly documentStatement: SqlStatement<P, TaggedDocument>;
  readonly revisionStatement: CheckStatement<P, { revision: number }>;

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
    this.revisionStatement = checkStatement(
      `${name}.revision`,
      `SELECT ${revision} AS revision ${match}`,
    );
  }

  document(db: SqlSession, params: P): Promise<ReadDocument | undefined> {
    return db.row(this.documentStatement, params);
  }

  /**
   * The document, once the caller has read its revision (which checked the caller's membership): here the
   * same as `document`; CachedReads serves the bytes it kept of that revision instead.
   */
  documentAt(db: SqlSession, params: P, _revision: number): Promise<ReadDocument | undefined> {
    return this.document(db, params);
  }

  /** The document, read inside a write (under its lock). */
  documentIn(round: Round, params: P): Pending<TaggedDocument | undefined> {
    return round.row(this.documentStatement, params);
  }

  async revision(db: SqlSession, params: P): Promise<number | undefined> {
    return (await db.check(this.revisionStatement, params))?.revision;
  }

  /**
   * What names the resource, whoever asks: the statement and the ids on its path. With a
   * revision, it names exactly one document (ids are never reused, and a representation's
   * revision changes whenever the representation does).
   */
  identity(params: P): string {
    const { name, parameters } = this.documentStatement;
    const path = parameters.filter((parameter) => parameter !== CALLER);
    return [name, ...path.map((parameter) => String(params[parameter]))].join(' ');
  }
}
