import { Injectable } from '@nestjs/common';
import { type SqlSession } from '../../database/sql-session';
import { sqlStatement } from '../../database/sql-statement';
import { type ProjectScope } from '../layout.scopes';
import { projectBytes, projectJson, projectSummaryJson } from './sql/documents.sql';
import { ownedPath, WRITE_REVISION } from './sql/paths.sql';
import { TaggedReads } from './sql/tagged-reads';

// The list in creation order, and a digest of each project's id and revision: any change to a
// project's summary (its title, revision, updatedAt) takes a revision, so the digest changes
// exactly when the list does.
const BY_CREATION = 'ORDER BY p.created_at, p.id';
const DIGEST = `md5(COALESCE(string_agg(p.id::text || ':' || p.revision, ',' ${BY_CREATION}), ''))`;
const LIST = sqlStatement<{ accountId: string }, { digest: string; json: string }>(
  'projects.list',
  `SELECT ${DIGEST} AS digest,
     COALESCE(json_agg(${projectSummaryJson('p')} ${BY_CREATION}), '[]')::text AS json
   FROM projects p WHERE p.owner_id = $accountId`,
);
const LIST_DIGEST = sqlStatement<{ accountId: string }, { digest: string }>(
  'projects.list-digest',
  `SELECT ${DIGEST} AS digest FROM projects p WHERE p.owner_id = $accountId`,
);

// Every write beneath a project starts here: the owner check and the project's row lock, held
// until the transaction ends. Writes to one project are serialised by it, so every statement
// after it sees the project's tree as the previous write left it (READ COMMITTED takes a new
// snapshot per statement), revisions follow commit order without gaps, and two writers never
// wait for each other's locks in opposite orders.
//
// The lock also sets the revision the write creates as a transaction-local setting
// (WRITE_REVISION, read by every write statement). So the statements can be sent right behind
// the lock without waiting for its answer: the project stays locked for as short a time as the
// statements take, not for the time this process needs to read each answer. A lock that finds
// no project sets nothing, and every write statement then changes nothing.
const LOCK = sqlStatement<ProjectScope, { revision: number; title: string; tree_bytes: string }>(
  'project.lock',
  `WITH locked AS (
     SELECT p.* FROM projects p WHERE p.id = $projectId AND p.owner_id = $accountId
     FOR NO KEY UPDATE)
   SELECT p.revision, p.title, ${projectBytes('p')} AS tree_bytes,
     set_config('layout.revision', (p.revision + 1)::text, true) AS write_revision
   FROM locked p`,
);

// The account's row lock serialises its creates, so the count is exact under concurrency.
const INSERT = sqlStatement<
  { accountId: string; title: string },
  { id: string; revision: number; json: string; projects: number }
>(
  'project.insert',
  `WITH counted AS (
     UPDATE accounts a SET project_count = a.project_count + 1 WHERE a.id = $accountId
     RETURNING a.project_count),
   inserted AS (
     INSERT INTO projects AS p (owner_id, title) SELECT $accountId, $title FROM counted
     RETURNING p.id, p.revision, (${projectJson('p')})::text AS json)
   SELECT i.id, i.revision, i.json, c.project_count AS projects FROM inserted i, counted c`,
);

const RETITLE = sqlStatement<
  ProjectScope & { title: string },
  { json: string; tree_bytes: string }
>(
  'project.retitle',
  `UPDATE projects p SET title = $title, revision = ${WRITE_REVISION}, updated_at = now()
   WHERE p.id = $projectId AND ${WRITE_REVISION} IS NOT NULL
   RETURNING (${projectJson('p')})::text AS json, ${projectBytes('p')} AS tree_bytes`,
);

const DELETE = sqlStatement<ProjectScope, never>(
  'project.delete',
  `WITH deleted AS (
     DELETE FROM projects p WHERE p.id = $projectId AND p.owner_id = $accountId
     RETURNING p.owner_id)
   UPDATE accounts a SET project_count = a.project_count - 1
   FROM deleted d WHERE a.id = d.owner_id`,
);

export interface LockedProject {
  revision: number;
  title: string;
  /** Bytes of its whole JSON answer. */
  treeBytes: number;
}

@Injectable()
export class ProjectsRepository {
  readonly reads = {
    project: new TaggedReads<ProjectScope>(
      'project',
      ownedPath('project'),
      'p.revision',
      projectJson('p'),
    ),
  };

  listDocument(
    db: SqlSession,
    accountId: string,
  ): Promise<{ digest: string; json: string } | undefined> {
    return db.row(LIST, { accountId });
  }

  async listDigest(db: SqlSession, accountId: string): Promise<string> {
    const row = await db.row(LIST_DIGEST, { accountId });
    if (!row) throw new Error('projects.list-digest: an aggregate always answers a row');
    return row.digest;
  }

  /** Locks the project for a write; undefined when it does not exist for this account. */
  async lockForWrite(tx: SqlSession, scope: ProjectScope): Promise<LockedProject | undefined> {
    const row = await tx.row(LOCK, scope);
    return row && { revision: row.revision, title: row.title, treeBytes: Number(row.tree_bytes) };
  }

  /** A new project and the number of projects the account has with it. */
  async insert(
    tx: SqlSession,
    accountId: string,
    title: string,
  ): Promise<{ id: string; revision: number; json: string; projects: number }> {
    const row = await tx.row(INSERT, { accountId, title });
    if (!row) throw new Error('project.insert: the signed-in account is gone');
    return row;
  }

  async retitle(
    tx: SqlSession,
    scope: ProjectScope,
    title: string,
  ): Promise<{ json: string; treeBytes: number }> {
    const row = await tx.row(RETITLE, { ...scope, title });
    if (!row) throw new Error('project.retitle: the project found under the lock is gone');
    return { json: row.json, treeBytes: Number(row.tree_bytes) };
  }

  async delete(tx: SqlSession, scope: ProjectScope): Promise<void> {
    await tx.rows(DELETE, scope);
  }
}
