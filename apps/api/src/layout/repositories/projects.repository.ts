import { Injectable } from '@nestjs/common';
import { type SqlSession } from '../../database/sql-session';
import { sqlStatement } from '../../database/sql-statement';
import { type ProjectScope } from '../layout.scopes';
import { type ProjectListKey } from '../project-list-cursor';
import { projectBytes, projectJson, projectSummaryJson } from './sql/documents.sql';
import { treeWriteStatement } from './sql/changes.sql';
import { newSubtree, sizesOf } from './sql/new-subtree.sql';
import { type NewSubtree, subtreeParams } from './new-subtree';
import { COPY_PROJECT, copyDocumentStatement } from './sql/copy-node.sql';
import { memberPath, WRITE_REVISION, WRITE_TIME } from './sql/paths.sql';
import { TaggedReads } from './sql/tagged-reads';
import { cachedReads } from './cached-reads';
import { DocumentCache } from './document-cache';
import { type Pending, type Round } from '../../database/unit-of-work';
import { type LockedRound, type WriterRole } from '../locked-round';
import { type ProjectRole } from '@layout/contracts';

// A page of the projects an account is a member of: the projects' creation order, the id
// breaking ties, so that the order is total and a page starts right after the previous page's
// last project (keyset pagination). The members' index (account_id, project_created_at,
// project_id) serves it: one range scan of at most limit + 1 entries, no sort, however many
// projects the account has, each project then found by its key. The extra row only tells
// whether a next page exists. The digest covers each shown project's id, revision and the
// caller's role: any change to a project's summary (its title, revision, updatedAt) takes a
// revision, and a change of role is the role's, so the digest changes exactly when the page's
// items do.
const BY_CREATION = 'ORDER BY m.project_created_at, m.project_id';
const AFTER_KEY = `AND (m.project_created_at, m.project_id)
  > ($afterCreatedAt::timestamptz, $afterId::uuid)`;

// `n` numbers the rows in the index's order (a window over the scan, no sort); the row past the
// limit only says that a next page exists.
function pageOf(after: boolean): string {
  return `(SELECT p.*, m.role, row_number() OVER (${BY_CREATION}) AS n
     FROM project_members m JOIN projects p ON p.id = m.project_id
     WHERE m.account_id = $accountId ${after ? AFTER_KEY : ''}
     ${BY_CREATION} LIMIT $limit::int + 1) p`;
}

const SHOWN = 'FILTER (WHERE p.n <= $limit::int)';
const DIGEST = `md5(COALESCE(string_agg(p.id::text || ':' || p.revision || ':' || p.role, ','
  ORDER BY p.n) ${SHOWN}, ''))`;
const MORE = 'count(*) > $limit::int';

type PageParams = { accountId: string; limit: number };
type AfterParams = PageParams & { afterCreatedAt: string; afterId: string };
type PageDigestRow = { digest: string; more: boolean };
type PageRow = PageDigestRow & {
  json: string;
  last_created_at: string | null;
  last_id: string | null;
};

const pageDocument = (after: boolean) =>
  `SELECT ${DIGEST} AS digest, ${MORE} AS more,
     COALESCE(json_agg(${projectSummaryJson('p')} ORDER BY p.n) ${SHOWN}, '[]')::text AS json,
     (array_agg(to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
       ORDER BY p.n DESC) ${SHOWN})[1] AS last_created_at,
     (array_agg(p.id::text ORDER BY p.n DESC) ${SHOWN})[1] AS last_id
   FROM ${pageOf(after)}`;
const pageDigest = (after: boolean) =>
  `SELECT ${DIGEST} AS digest, ${MORE} AS more FROM ${pageOf(after)}`;

const READS = {
  project: new TaggedReads<ProjectScope>(
    'projects.project',
    memberPath('project'),
    'p.revision',
    projectJson('p'),
  ),
};

const FIRST_PAGE = sqlStatement<PageParams, PageRow>('projects.first-page', pageDocument(false));
const NEXT_PAGE = sqlStatement<AfterParams, PageRow>('projects.next-page', pageDocument(true));
const FIRST_PAGE_DIGEST = sqlStatement<PageParams, PageDigestRow>(
  'projects.first-page-digest',
  pageDigest(false),
);
const NEXT_PAGE_DIGEST = sqlStatement<AfterParams, PageDigestRow>(
  'projects.next-page-digest',
  pageDigest(true),
);

/** Which page of an account's projects: at most `limit`, after `after` (the first page without). */
export interface ProjectPageQuery {
  accountId: string;
  limit: number;
  after?: ProjectListKey;
}

/** What tells a page's representation apart: its items' ids and revisions, and whether more follow. */
export interface ProjectPageDigest {
  /** md5 of the shown projects' ids and revisions, in order. */
  digest: string;
  /** Whether a next page exists. */
  more: boolean;
}

export interface ProjectPage extends ProjectPageDigest {
  /** The JSON array of the page's project summaries. */
  json: string;
  /** Sort key of the page's last project; undefined when the page is empty. */
  last?: ProjectListKey;
}

function pageParams(query: ProjectPageQuery): PageParams | AfterParams {
  const { accountId, limit, after } = query;
  return after
    ? { accountId, limit, afterCreatedAt: after.createdAt, afterId: after.id }
    : { accountId, limit };
}

// Every write beneath a project starts here: the caller's role and the project's row lock, held
// until the transaction ends. Writes to one project are serialised by it, so every statement
// after it sees the project's tree as the previous write left it (READ COMMITTED takes a new
// snapshot per statement), revisions follow commit order without gaps, and two writers never
// wait for each other's locks in opposite orders.
//
// The lock also sets the revision the write creates as a transaction-local setting
// (WRITE_REVISION, read by every write statement), and its time (WRITE_TIME), with what the
// write records in the history: its operation, the path it addressed and how many revisions
// are kept (the migration `history` has the triggers that read them). So the statements can be
// sent right behind the lock without waiting for its answer: the project stays locked for as
// short a time as the statements take, not for the time this process needs to read each
// answer. A lock that finds no project of which the caller is a member with at least the role
// the write needs (`$least`) sets nothing, and every write statement then changes nothing.
//
// The caller's membership is locked too (FOR SHARE): a removal, or a change of role, waits for
// a write in flight to commit, and a write that waited for the project behind one sees the
// membership as it left it (a row that a lock waited for is read again, a deleted one skipped;
// the other tables of the statement keep the snapshot it began with). So a member removed or
// made a viewer while its write is in flight has that write committed before, or refused.
const LOCK = sqlStatement<
  ProjectScope & RecordedChange & { least: WriterRole },
  { revision: number; title: string; tree_bytes: string; role: ProjectRole }
>(
  'projects.lock',
  `WITH locked AS (
     SELECT p.*, m.role, m.role >= $least::project_role AS allowed
     FROM projects p
       JOIN project_members m ON m.project_id = p.id AND m.account_id = $accountId
     WHERE p.id = $projectId
     FOR NO KEY UPDATE OF p FOR SHARE OF m)
   SELECT p.revision, p.title, ${projectBytes('p')} AS tree_bytes, p.role,
     set_config('layout.revision', CASE WHEN p.allowed THEN (p.revision + 1)::text ELSE '' END,
       true) AS write_revision,
     set_config('layout.write_time', clock_timestamp()::text, true) AS write_time,
     set_config('layout.operation', $operation, true) AS operation,
     set_config('layout.path', $path, true) AS path,
     set_config('layout.author', $accountId::text, true) AS author,
     set_config('layout.history_revisions', $historyRevisions::int::text, true) AS kept
   FROM locked p`,
);

// The account's row lock serialises its creates, so the count is exact under concurrency. An
// account deleted meanwhile (its token was good when the request came) gets no new project. The
// project comes with the tree its body gives (newSubtree), all of it at revision 1.
const SUBTREE = newSubtree('project', {
  project: '$projectId::uuid',
  revision: '1',
  gate: 'inserted',
});
const sizeOfBlocks = (what: string) =>
  `COALESCE((SELECT s.${what} FROM ${sizesOf('block')} s WHERE s.parent_id = $projectId::uuid), 0)`;
const INSERT = sqlStatement<
  { accountId: string; projectId: string; title: string } & Record<string, unknown>,
  { id: string; revision: number; json: string; projects: number; tree_bytes: string }
>(
  'projects.insert',
  `WITH ${[
    ...SUBTREE.values,
    `counted AS (
       UPDATE accounts a SET project_count = a.project_count + 1
       WHERE a.id = $accountId AND a.deleted_at IS NULL
       RETURNING a.project_count)`,
    `inserted AS (
       INSERT INTO projects AS p (id, owner_id, title, child_count, children_bytes)
       SELECT $projectId::uuid, $accountId, $title, ${sizeOfBlocks('child_count')},
         ${sizeOfBlocks('children_bytes')}
       FROM counted
       RETURNING p.id, p.revision, (${projectJson('p')})::text AS json,
         ${projectBytes('p')} AS tree_bytes)`,
    ...SUBTREE.inserts,
  ].join(',\n')}
   SELECT i.id, i.revision, i.json, c.project_count AS projects, i.tree_bytes
   FROM inserted i, counted c`,
);

const RETITLE = treeWriteStatement<
  ProjectScope & { title: string },
  { json: string; tree_bytes: string }
>('projects.retitle', 'project', {
  parents: 'one',
  with: `target AS (
     SELECT p.id, ${projectBytes('p')} AS bytes FROM projects p
     WHERE p.id = $projectId AND ${WRITE_REVISION} IS NOT NULL),
   touched_project AS (
     UPDATE projects p SET title = $title, revision = ${WRITE_REVISION}, updated_at = ${WRITE_TIME}
     FROM target t WHERE p.id = t.id
     RETURNING p.id, p.revision, p.title, p.updated_at, (${projectJson('p')})::text AS json,
       ${projectBytes('p')} AS tree_bytes)`,
  changed: `SELECT t.id, NULL::uuid, NULL::uuid, t.bytes, u.tree_bytes
    FROM touched_project u JOIN target t ON t.id = u.id`,
  select: `SELECT u.json, u.tree_bytes FROM touched_project u`,
});

// Deleting a project deletes its tree, its members, their streams' leases and presence (the
// foreign keys cascade): nothing is left to follow. Behind the lock, which let only the owner.
const DELETE = sqlStatement<ProjectScope, never>(
  'projects.delete',
  `WITH deleted AS (
     DELETE FROM projects p WHERE p.id = $projectId AND ${WRITE_REVISION} IS NOT NULL
     RETURNING p.owner_id)
   UPDATE accounts a SET project_count = a.project_count - 1
   FROM deleted d WHERE a.id = d.owner_id`,
);

const COPY_DOCUMENT = copyDocumentStatement('project');

/** What a write records of itself in the project's history (see TreeChange). */
export interface RecordedChange {
  operation: string;
  path: string;
  /** How many revisions of the project are kept. */
  historyRevisions: number;
}

export interface LockedProject {
  revision: number;
  title: string;
  /** Bytes of its whole JSON answer. */
  treeBytes: number;
  /** The caller's role in it. */
  role: ProjectRole;
}

@Injectable()
export class ProjectsRepository {
  /** The reads of a project, keeping what they build (CachedReads). */
  readonly reads: typeof READS;

  constructor(documents?: DocumentCache) {
    this.reads = {
      project: cachedReads(READS.project, documents),
    };
  }

  /** A page of the account's projects; the digest alone is what a 304 needs. */
  async page(db: SqlSession, query: ProjectPageQuery): Promise<ProjectPage> {
    const params = pageParams(query);
    const row =
      'afterId' in params ? await db.row(NEXT_PAGE, params) : await db.row(FIRST_PAGE, params);
    if (!row) throw new Error('projects.page: an aggregate always answers a row');
    const last =
      row.last_created_at !== null && row.last_id !== null
        ? { createdAt: row.last_created_at, id: row.last_id }
        : undefined;
    return { digest: row.digest, more: row.more, json: row.json, ...(last ? { last } : {}) };
  }

  async pageDigest(db: SqlSession, query: ProjectPageQuery): Promise<ProjectPageDigest> {
    const params = pageParams(query);
    const row =
      'afterId' in params
        ? await db.row(NEXT_PAGE_DIGEST, params)
        : await db.row(FIRST_PAGE_DIGEST, params);
    if (!row) throw new Error('projects.page-digest: an aggregate always answers a row');
    return { digest: row.digest, more: row.more };
  }

  /**
   * Locks the project for a write that `change` describes in its history, if the caller's role
   * is at least `least`; undefined when it does not exist for this account (not a member). With
   * a lesser role the project is found (its `role` says which) but not locked for the write:
   * the statements behind it change nothing.
   */
  lockForWrite(
    round: Round,
    scope: ProjectScope,
    change: RecordedChange,
    least: WriterRole,
  ): Pending<LockedProject | undefined> {
    return round.row(LOCK, { ...scope, ...change, least }).map(
      (row) =>
        row && {
          revision: row.revision,
          title: row.title,
          treeBytes: Number(row.tree_bytes),
          role: row.role,
        },
    );
  }

  /**
   * A new project `projectId` with `subtree` in it, and the number of projects the account has
   * with it; undefined when the account was deleted since its token was checked.
   */
  insert(
    round: Round,
    project: { accountId: string; projectId: string; title: string },
    subtree?: NewSubtree,
  ): Pending<{ json: string; projects: number; treeBytes: number } | undefined> {
    return round
      .row(INSERT, { ...project, ...subtreeParams('project', subtree) })
      .map(
        (row) =>
          row && { json: row.json, projects: row.projects, treeBytes: Number(row.tree_bytes) },
      );
  }

  retitle(
    round: LockedRound,
    scope: ProjectScope,
    title: string,
  ): Pending<{ json: string; treeBytes: number }> {
    return round.row(RETITLE, { ...scope, title }).map((row) => {
      if (!row) throw new Error('projects.retitle: the project found under the lock is gone');
      return { json: row.json, treeBytes: Number(row.tree_bytes) };
    });
  }

  delete(round: LockedRound, scope: ProjectScope): Pending<unknown> {
    return round.rows(DELETE, scope);
  }

  /**
   * Copies the caller's project, with its whole tree, into a new project of theirs, `copyId`
   * (see COPY_PROJECT), and reads the copy's document in the same round.
   */
  copy(
    round: Round,
    scope: ProjectScope,
    request: {
      copyId: string;
      title: string | null;
      titleMax: number;
      titleSuffix: string;
      maxNodes: number;
    },
  ): { copied: Pending<CopiedProject | undefined>; json: Pending<string | undefined> } {
    return {
      copied: round.row(COPY_PROJECT, { ...scope, ...request }).map(
        (row) =>
          row && {
            revision: row.revision,
            nodes: Number(row.nodes),
            projects: row.projects ?? undefined,
            treeBytes: row.tree_bytes === null ? undefined : Number(row.tree_bytes),
            copied: row.copied,
          },
      ),
      json: round
        .row(COPY_DOCUMENT, { projectId: scope.projectId, copyId: request.copyId })
        .map((row) => row?.json),
    };
  }
}

/** What a project's copy reports (see COPY_PROJECT). */
export interface CopiedProject {
  /** The original's tag, for `If-Match`. */
  revision: number;
  /** Nodes the copy makes: the project and everything in it. */
  nodes: number;
  /** The account's projects with the copy; undefined when nothing was copied. */
  projects: number | undefined;
  /** The copy's whole answer; undefined when nothing was copied. */
  treeBytes: number | undefined;
  copied: boolean;
}
