import { Injectable } from '@nestjs/common';
import { type SqlSession } from '../../database/sql-session';
import { checkStatement, sqlStatement } from '../../database/sql-statement';
import { type Pending } from '../../database/unit-of-work';
import { type LockedRound } from '../locked-round';
import { type ProjectScope } from '../layout.scopes';
import { type RevisionPageIdentity } from '../layout.tags';
import { DocumentCache } from './document-cache';
import {
  PAST_DOCUMENT,
  PAST_REVISION,
  RESTORE,
  REVISION_PAGE,
  type RestoreParams,
} from './sql/history.sql';

const PAST_STATE = sqlStatement<
  ProjectScope & { revision: number; kept: number },
  { revision: number | null; json: string | null }
>('history.past-state', PAST_DOCUMENT);

const PAST_REVISION_KEPT = checkStatement<
  ProjectScope & { revision: number; kept: number },
  { revision: number | null }
>('history.past-revision', PAST_REVISION);

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
  /** As PostgreSQL built it, or the bytes this instance kept of an earlier build. */
  json: string | Buffer | null;
}

/**
 * Whether a past state can be read: undefined when the project is not the caller's, false when
 * the revision is not kept (pruned, or not made yet).
 */
export type PastRevision = boolean | undefined;

@Injectable()
export class HistoryRepository {
  /**
   * Past states are the one kind of document a revision makes immutable: once built, one is
   * served again for as long as its revision is kept (checked at each read).
   */
  constructor(private readonly documents?: DocumentCache) {}

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

  /** Whether the project is the caller's and keeps `revision`: one small indexed statement. */
  async pastRevision(
    db: SqlSession,
    scope: ProjectScope,
    revision: number,
    kept: number,
  ): Promise<PastRevision> {
    const row = await db.check(PAST_REVISION_KEPT, { ...scope, revision, kept });
    return row && row.revision !== null;
  }

  /**
   * The whole project as it was right after `revision`, while that is kept: built once by this
   * instance, then the bytes it kept, behind the check that the revision is still kept (and
   * that the caller owns the project: the account is no part of what names the document).
   */
  async pastState(
    db: SqlSession,
    scope: ProjectScope,
    revision: number,
    kept: number,
  ): Promise<PastState | undefined> {
    const resource = `${PAST_STATE.name} ${scope.projectId} ${revision}`;
    const built = this.documents?.find(resource, revision);
    if (built !== undefined) {
      const readable = await this.pastRevision(db, scope, revision, kept);
      if (readable !== true) return readable === undefined ? undefined : { json: null };
      await db.admitKept(built.length);
      return { json: built };
    }
    const row = await db.row(PAST_STATE, { ...scope, revision, kept });
    if (!row) return undefined;
    if (row.json === null) return { json: null };
    return { json: this.documents?.keep(resource, revision, row.json) ?? row.json };
  }

  /**
   * Brings the project's tree back to `revision`, behind the project's lock: its statements, in
   * one round. The answer is the project's document and size, or undefined when `revision` is
   * not kept (then nothing changed).
   */
  restore(
    round: LockedRound,
    params: RestoreParams,
  ): Pending<{ json: string; treeBytes: number } | undefined> {
    round.rows(RESTORE.plan.wholeLevels, {});
    for (const statement of [
      ...RESTORE.deletes,
      RESTORE.shift,
      ...RESTORE.upserts,
      ...RESTORE.recounts,
    ]) {
      round.rows(statement, params);
    }
    const project = round.row(RESTORE.project, params);
    round.rows(RESTORE.plan.asBefore, {});
    return project.map((row) => row && { json: row.json, treeBytes: Number(row.tree_bytes) });
  }
}
