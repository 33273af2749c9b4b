import { Injectable } from '@nestjs/common';
import { sqlStatement } from '../../database/sql-statement';
import { type Pending, type Round } from '../../database/unit-of-work';
import { type ContentRecord, type ContentWrite } from '../layout.records';
import { type ColumnScope, type ContentScope } from '../layout.scopes';
import { treeWriteStatement } from './sql/changes.sql';
import { copyDocumentStatement, copyNodeStatement } from './sql/copy-node.sql';
import { deleteNodeStatement } from './sql/delete-node.sql';
import { contentJson, contentsOf, nodeBytes } from './sql/documents.sql';
import { moveNodeStatements, type MovePlacement } from './sql/move-node.sql';
import { newNodeSortKey } from './sql/new-node.sql';
import { lockedPath, ownedPath, WRITE_REVISION } from './sql/paths.sql';
import { TaggedReads } from './sql/tagged-reads';
import { cachedReads } from './cached-reads';
import { DocumentCache } from './document-cache';
import {
  type CopyRequest,
  copiedNode,
  type CopiedNode,
  movedNode,
  type MovedNode,
  type NodeWrite,
  type WrittenNode,
  writtenNode,
} from './written-node';

const READS = {
  content: new TaggedReads<ContentScope>(
    'contents.content',
    ownedPath('content'),
    'ct.revision',
    contentJson('ct'),
  ),
  list: new TaggedReads<ColumnScope>(
    'contents.list',
    ownedPath('column'),
    'c.list_revision',
    contentsOf('c'),
  ),
};

const INSERT = treeWriteStatement<
  ColumnScope & StoredContent & NodeWrite,
  { id: string; json: string; child_count: number; tree_bytes: string }
>('contents.insert', 'content', {
  parents: 'one',
  with: `parent AS (SELECT c.id ${lockedPath('column')}),
   inserted AS (
     INSERT INTO contents AS ct (project_id, column_id, sort_key, type, style, data, revision)
     SELECT $projectId, parent.id,
       ${newNodeSortKey('content', 'parent.id')},
       $type::content_type, $style::json, $data::json, ${WRITE_REVISION}
     FROM parent
     RETURNING ct.id, (${contentJson('ct')})::text AS json)`,
  changed: `SELECT i.id, NULL::uuid, p.id, 0::bigint, octet_length(i.json)::bigint
    FROM inserted i, parent p`,
  select: `SELECT i.id, i.json, tc.child_count, tp.tree_bytes
   FROM inserted i, touched_column tc, touched_project tp`,
});

const FIND = sqlStatement<ContentScope, ContentRecord & { revision: number }>(
  'contents.find-for-write',
  `SELECT ct.id, ct.revision, ct.type, ct.style, ct.data ${lockedPath('content')}`,
);

const UPDATE = treeWriteStatement<
  ContentScope & StoredContent & NodeWrite & { changed: boolean },
  { json: string; child_count: number; tree_bytes: string }
>('contents.update', 'content', {
  parents: 'one',
  with: `target AS (
     SELECT ct.id, ct.column_id, ${nodeBytes.content('ct')} AS bytes ${lockedPath('content')}),
   updated AS (
     UPDATE contents ct SET type = $type::content_type,
       style = CASE WHEN $changed::boolean THEN $style::json ELSE ct.style END,
       data = CASE WHEN $changed::boolean THEN $data::json ELSE ct.data END,
       revision = CASE WHEN $changed::boolean OR $sortKey::bigint IS NOT NULL THEN ${WRITE_REVISION}
         ELSE ct.revision END,
       sort_key = COALESCE($sortKey::bigint, ct.sort_key)
     FROM target t WHERE ct.id = t.id AND ct.project_id = $projectId
     RETURNING ct.id, (${contentJson('ct')})::text AS json)`,
  changed: `SELECT t.id, t.column_id, t.column_id, t.bytes, octet_length(u.json)::bigint
    FROM updated u JOIN target t ON t.id = u.id`,
  select: `SELECT u.json, tc.child_count, tp.tree_bytes
   FROM updated u, touched_column tc, touched_project tp`,
});

const DELETE = deleteNodeStatement<ContentScope>('content');

const MOVE = moveNodeStatements<ContentScope & MovePlacement, Parameters<typeof movedNode>[0]>(
  'content',
  contentJson,
);

const COPY = copyNodeStatement<
  ContentScope & CopyRequest & { toParentId: string | null },
  Parameters<typeof copiedNode>[0]
>('content');

const COPY_DOCUMENT = copyDocumentStatement('content', contentJson);

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
  /** The reads of a content and of a column's contents, keeping what they build (CachedReads). */
  readonly reads: typeof READS;

  constructor(documents?: DocumentCache) {
    this.reads = {
      content: cachedReads(READS.content, documents),
      list: cachedReads(READS.list, documents),
    };
  }

  /** Appends (or inserts at `sortKey`); undefined when the column is not on the path. */
  insert(
    round: Round,
    scope: ColumnScope,
    content: Omit<ContentWrite, 'id'>,
    write: NodeWrite,
  ): Pending<(WrittenNode & { id: string }) | undefined> {
    return round
      .row(INSERT, { ...scope, ...stored(content), ...write })
      .map((row) => row && { id: row.id, ...writtenNode(row) });
  }

  /** The content as stored, with its revision, for the rules of an update. */
  findForWrite(
    round: Round,
    scope: ContentScope,
  ): Pending<(ContentRecord & { revision: number }) | undefined> {
    return round.row(FIND, scope);
  }

  /** Stores the content's new state (`changed`: its representation changed) and place. */
  update(
    round: Round,
    scope: ContentScope,
    content: Omit<ContentWrite, 'id'>,
    write: NodeWrite & { changed: boolean },
  ): Pending<WrittenNode> {
    return round.row(UPDATE, { ...scope, ...stored(content), ...write }).map((row) => {
      if (!row) throw new Error('contents.update: the content found under the lock is gone');
      return writtenNode(row);
    });
  }

  /** The deleted content's revision, or undefined when there was none on the path. */
  delete(round: Round, scope: ContentScope): Pending<number | undefined> {
    return round.row(DELETE, scope).map((row) => row?.previous_revision);
  }

  /** Moves the content to another column of the project (or within its own). */
  move(
    round: Round,
    scope: ContentScope,
    placement: MovePlacement & { toParentId: string | null },
  ): Pending<MovedNode | undefined> {
    return round
      .row(MOVE.for(placement), { ...scope, ...placement })
      .map((row) => row && movedNode(row));
  }

  /** Copies the content into a column of the project, with `copyId` as the copy's id. */
  copy(
    round: Round,
    scope: ContentScope,
    request: CopyRequest & { toParentId: string | null },
  ): { copied: Pending<CopiedNode | undefined>; json: Pending<string | undefined> } {
    return {
      copied: round.row(COPY, { ...scope, ...request }).map((row) => row && copiedNode(row)),
      json: round
        .row(COPY_DOCUMENT, { projectId: scope.projectId, copyId: request.copyId })
        .map((row) => row?.json),
    };
  }
}
