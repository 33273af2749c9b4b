import { Injectable } from '@nestjs/common';
import { type SqlSession } from '../../database/sql-session';
import { sqlStatement } from '../../database/sql-statement';
import { type Pending, type Round } from '../../database/unit-of-work';
import { type ProjectScope } from '../layout.scopes';
import { type RevisionPageIdentity } from '../layout.tags';
import { PAST_DOCUMENT, RESTORE, REVISION_PAGE, type RestoreParams } from './sql/history.sql';

const PAST_STATE = sqlStatement<
  ProjectScope & { revision: number; kept: number },
  { revision: number | null; json: string | null }
>('history.past-state', PAST_DOCUMENT);

const PAGE = sqlStatement<
  ProjectScope & { before: number | null; limit: number; kept: number },
  { json: string; more: boolean; first: number | null; last: number | null }
>('history.page', REVISION_PAGE);

/** A page of a project's revisions: the JSON array, and where the next page starts. */
export interface RevisionPage {
  json: string;
  /** What the page shows, which tells it apart (see revisionsTag). */
  identity: RevisionPageIdentity;
  /** The `before` of the next page; undefined on the last page. */
  nextBefore?: number;
}

/** A past state: undefined when the project is not the caller's, `json` null when not kept. */
export interface PastState {
  json: string | null;
}

@Injectable()
export class HistoryRepository {
  /** A page of the project's kept revisions; undefined when it is not the caller's. */
  async page(
    db: SqlSession,
    scope: ProjectScope,
    query: { before: number | null; limit: number; kept: number },
  ): Promise<RevisionPage | undefined> {
    const row = await db.row(PAGE, { ...scope, ...query });
    if (!row) return undefined;
    return {
      json: row.json,
      identity: { newest: row.first, oldest: row.last, more: row.more },
      ...(row.more && row.last !== null ? { nextBefore: row.last } : {}),
    };
  }

  /** The whole project as it was right after `revision`, while that is kept. */
  async pastState(
    db: SqlSession,
    scope: ProjectScope,
    revision: number,
    kept: number,
  ): Promise<PastState | undefined> {
    const row = await db.row(PAST_STATE, { ...scope, revision, kept });
    return row && { json: row.json };
  }

  /**
   * Brings the project's tree back to `revision`, behind the project's lock: its statements, in
   * one round. The answer is the project's document and size, or undefined when `revision` is
   * not kept (then nothing changed).
   */
  restore(
    round: Round,
    params: RestoreParams,
  ): Pending<{ json: string; treeBytes: number } | undefined> {
    for (const statement of [
      ...RESTORE.deletes,
      RESTORE.shift,
      ...RESTORE.upserts,
      ...RESTORE.recounts,
    ]) {
      round.rows(statement, params);
    }
    return round
      .row(RESTORE.project, params)
      .map((row) => row && { json: row.json, treeBytes: Number(row.tree_bytes) });
  }
}
