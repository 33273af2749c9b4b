import { Injectable } from '@nestjs/common';
import { type SqlSession } from '../../database/sql-session';
import { sqlStatement } from '../../database/sql-statement';
import { type ContentRecord, type ContentWrite } from '../layout.records';
import { type ColumnScope, type ContentScope } from '../layout.scopes';
import { deleteNodeStatement } from './sql/delete-node.sql';
import { contentJson, contentsOf, nodeBytes } from './sql/documents.sql';
import { lockedPath, ownedPath, WRITE_REVISION } from './sql/paths.sql';
import { TaggedReads } from './sql/tagged-reads';
import { insertedDelta, newNodeSortKey } from './sql/new-node.sql';
import { touchAncestors } from './sql/touch.sql';
import { type NodeWrite, type WrittenNode, writtenNode } from './written-node';

const INSERT = sqlStatement<
  ColumnScope & StoredContent & NodeWrite,
  { id: string; json: string; child_count: number; tree_bytes: string }
>(
  'content.insert',
  `WITH parent AS (SELECT c.id, c.child_count ${lockedPath('column')}),
   inserted AS (
     INSERT INTO contents AS ct (project_id, column_id, sort_key, type, style, data, revision)
     SELECT $projectId, parent.id,
       ${newNodeSortKey('content', 'parent.id')},
       $type::content_type, $style::json, $data::json, ${WRITE_REVISION}
     FROM parent
     RETURNING ct.id, (${contentJson('ct')})::text AS json),
   ${insertedDelta('octet_length(i.json)')},
   ${touchAncestors('column')}
   SELECT i.id, i.json, tc.child_count, tp.tree_bytes
   FROM inserted i, touched_column tc, touched_project tp`,
);

const FIND = sqlStatement<ContentScope, ContentRecord & { revision: number }>(
  'content.find-for-write',
  `SELECT ct.id, ct.revision, ct.type, ct.style, ct.data ${lockedPath('content')}`,
);

const UPDATE = sqlStatement<
  ContentScope & StoredContent & NodeWrite & { changed: boolean },
  { json: string; child_count: number; tree_bytes: string }
>(
  'content.update',
  `WITH target AS (SELECT ct.id, ${nodeBytes.content('ct')} AS bytes ${lockedPath('content')}),
   updated AS (
     UPDATE contents ct SET type = $type::content_type,
       style = CASE WHEN $changed::boolean THEN $style::json ELSE ct.style END,
       data = CASE WHEN $changed::boolean THEN $data::json ELSE ct.data END,
       revision = CASE WHEN $changed::boolean THEN ${WRITE_REVISION} ELSE ct.revision END,
       sort_key = COALESCE($sortKey::bigint, ct.sort_key)
     FROM target t WHERE ct.id = t.id AND ct.project_id = $projectId
     RETURNING (${contentJson('ct')})::text AS json),
   delta AS (SELECT octet_length(u.json) - t.bytes AS bytes, 0 AS count FROM updated u, target t),
   ${touchAncestors('column')}
   SELECT u.json, tc.child_count, tp.tree_bytes
   FROM updated u, touched_column tc, touched_project tp`,
);

const DELETE = deleteNodeStatement<ContentScope>('content');

/** A content as a statement stores it: style and data as JSON text. */
interface StoredContent {
  type: string;
  style: string;
  data: string;
}

const stored = (content: Omit<ContentWrite, 'id'>): StoredContent => ({
  type: content.type,
  style: JSON.stringify(content.style),
  data: JSON.stringify(content.data),
});

/** Statements of contents. Writes run inside a write that holds the project's lock. */
@Injectable()
export class ContentsRepository {
  readonly reads = {
    content: new TaggedReads<ContentScope>(
      'content',
      ownedPath('content'),
      'ct.revision',
      contentJson('ct'),
    ),
    list: new TaggedReads<ColumnScope>(
      'contents',
      ownedPath('column'),
      'c.list_revision',
      contentsOf('c'),
    ),
  };

  /** Appends (or inserts at `sortKey`); undefined when the column is not on the path. */
  async insert(
    tx: SqlSession,
    scope: ColumnScope,
    content: Omit<ContentWrite, 'id'>,
    write: NodeWrite,
  ): Promise<(WrittenNode & { id: string }) | undefined> {
    const row = await tx.row(INSERT, { ...scope, ...stored(content), ...write });
    return row && { id: row.id, ...writtenNode(row) };
  }

  /** The content as stored, with its revision, for the rules of an update. */
  findForWrite(
    tx: SqlSession,
    scope: ContentScope,
  ): Promise<(ContentRecord & { revision: number }) | undefined> {
    return tx.row(FIND, scope);
  }

  /** Stores the content's new state (`changed`: its representation changed) and place. */
  async update(
    tx: SqlSession,
    scope: ContentScope,
    content: Omit<ContentWrite, 'id'>,
    write: NodeWrite & { changed: boolean },
  ): Promise<WrittenNode> {
    const row = await tx.row(UPDATE, { ...scope, ...stored(content), ...write });
    if (!row) throw new Error('content.update: the content found under the lock is gone');
    return writtenNode(row);
  }

  /** The deleted content's revision, or undefined when there was none on the path. */
  async delete(tx: SqlSession, scope: ContentScope): Promise<number | undefined> {
    return (await tx.row(DELETE, scope))?.previous_revision;
  }
}
