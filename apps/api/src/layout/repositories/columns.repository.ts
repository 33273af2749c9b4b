import { Injectable } from '@nestjs/common';
import { ROW_WIDTH } from '@layout/contracts';
import { sqlStatement } from '../../database/sql-statement';
import { type Pending, type Round } from '../../database/unit-of-work';
import { type ContentRecord, type ContentWrite } from '../layout.records';
import { type ColumnScope, type RowScope } from '../layout.scopes';
import { treeWriteStatement } from './sql/changes.sql';
import { copyDocumentStatement, copyNodeStatement } from './sql/copy-node.sql';
import { deleteNodeStatement } from './sql/delete-node.sql';
import {
  columnJson,
  columnsOf,
  contentJson,
  jsonBytes,
  nodeBytes,
  projectBytes,
} from './sql/documents.sql';
import { moveNodeStatements, type MovePlacement } from './sql/move-node.sql';
import { newNodeSortKey } from './sql/new-node.sql';
import { lockedPath, ownedPath, WRITE_REVISION } from './sql/paths.sql';
import { TaggedReads } from './sql/tagged-reads';
import { cachedReads } from './cached-reads';
import { DocumentCache } from './document-cache';
import { SORT_KEY_GAP } from './sql/tree-levels';
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

type Written = { json: string; child_count: number; tree_bytes: string };

const READS = {
  column: new TaggedReads<ColumnScope>(
    'columns.column',
    ownedPath('column'),
    'c.revision',
    columnJson('c'),
  ),
  list: new TaggedReads<RowScope>(
    'columns.list',
    ownedPath('row'),
    'r.list_revision',
    columnsOf('r'),
  ),
};

/** The summed size of the columns of row `row` other than `column`. */
const othersWidth = (row: string, column: string) =>
  `(SELECT COALESCE(sum(o.size), 0)::int FROM columns o
    WHERE o.row_id = ${row} AND o.project_id = $projectId AND o.id IS DISTINCT FROM ${column})`;

/** A new, empty column, `$columnId` (made by the caller, so that its contents can follow in the same round). */
const INSERT = treeWriteStatement<
  ColumnScope & NodeWrite & { size: number },
  Written & { others: number }
>('columns.insert', 'column', {
  parents: 'one',
  with: `parent AS (SELECT r.id ${lockedPath('row')}),
   inserted AS (
     INSERT INTO columns AS c (id, project_id, row_id, sort_key, size, revision, list_revision)
     SELECT $columnId, $projectId, p.id,
       ${newNodeSortKey('column', 'p.id')},
       $size, ${WRITE_REVISION}, ${WRITE_REVISION}
     FROM parent p
     RETURNING c.id, ${nodeBytes.column('c')} AS bytes, (${columnJson('c')})::text AS json)`,
  changed: `SELECT i.id, NULL::uuid, p.id, 0::bigint, i.bytes FROM inserted i, parent p`,
  select: `SELECT i.json, ${othersWidth('p.id', '$columnId::uuid')} AS others,
     tr.child_count, tp.tree_bytes
   FROM inserted i, parent p, touched_row tr, touched_project tp`,
});

// The resize, the editor's most frequent write: one statement that reports what the row-width
// rule needs (the other columns' sizes, read after the project lock, so current). The project's
// size is reported whether or not it changed, as it is after the statements before this one.
const RESIZE = treeWriteStatement<
  ColumnScope & NodeWrite & { size: number | null },
  Written & { previous_revision: number; revision: number; others: number; changed: boolean }
>('columns.resize', 'column', {
  parents: 'one',
  with: `target AS (
     SELECT c.id, c.project_id, c.row_id, c.revision, c.size, ${nodeBytes.column('c')} AS bytes
     ${lockedPath('column')}),
   updated AS (
     UPDATE columns c SET size = COALESCE($size::smallint, c.size),
       revision = CASE WHEN c.size <> COALESCE($size::smallint, c.size)
         OR $sortKey::bigint IS NOT NULL THEN ${WRITE_REVISION} ELSE c.revision END,
       sort_key = COALESCE($sortKey::bigint, c.sort_key)
     FROM target t
     WHERE c.id = t.id AND c.project_id = $projectId
       AND (t.size <> COALESCE($size::smallint, t.size) OR $sortKey::bigint IS NOT NULL)
     RETURNING c.id, c.revision, ${nodeBytes.column('c')} AS bytes,
       (${columnJson('c')})::text AS json)`,
  changed: `SELECT t.id, t.row_id, t.row_id, t.bytes, u.bytes FROM updated u JOIN target t ON t.id = u.id`,
  select: `SELECT t.revision AS previous_revision, COALESCE(u.revision, t.revision) AS revision,
     ${othersWidth('t.row_id', 't.id')} AS others, u.json IS NOT NULL AS changed,
     COALESCE(u.json, (${columnJson('t')})::text) AS json,
     COALESCE(tr.child_count, 0) AS child_count,
     COALESCE(tp.tree_bytes,
       (SELECT ${projectBytes('p')} FROM projects p WHERE p.id = $projectId)) AS tree_bytes
   FROM target t LEFT JOIN updated u ON true
     LEFT JOIN touched_row tr ON true LEFT JOIN touched_project tp ON true`,
});

const FIND = sqlStatement<
  ColumnScope,
  { revision: number; size: number; others: number; contents: ContentRecord[] | null }
>(
  'columns.find-for-write',
  `SELECT c.revision, c.size, ${othersWidth('c.row_id', 'c.id')} AS others,
     (SELECT json_agg(json_build_object('id', ct.id, 'type', ct.type, 'style', ct.style,
        'data', ct.data) ORDER BY ct.sort_key)
      FROM contents ct WHERE ct.column_id = c.id AND ct.project_id = $projectId) AS contents
   ${lockedPath('column')}`,
);

// The column's contents become exactly `items`, in that order: listed ids are updated in place
// (their revision moves only when their representation changes), the others created; contents
// not listed go, looked up by key as one array (joined to the list instead, a guess of one row
// read every content of the project once per content of the column). New keys start above every
// current key, so no two rows ever share one. Style and data are compared as jsonb: the same
// values in another key order or spacing are the same content, which keeps its stored text, and
// so its bytes and its tag.
const SAME_CONTENT = `(ct.type, ct.style::jsonb, ct.data::jsonb)
  IS NOT DISTINCT FROM (excluded.type, excluded.style::jsonb, excluded.data::jsonb)`;
const REPLACE_CONTENTS = treeWriteStatement<
  ColumnScope & {
    ids: (string | null)[];
    types: string[];
    styles: string[];
    datas: string[];
  },
  { tree_bytes: string | null }
>('columns.replace-contents', 'content', {
  parents: 'one',
  with: `col AS (SELECT c.id ${lockedPath('column')}),
   before AS (
     SELECT ct.id, ${nodeBytes.content('ct')} AS bytes
     FROM contents ct JOIN col ON ct.column_id = col.id WHERE ct.project_id = $projectId),
   removed AS (
     DELETE FROM contents ct
     WHERE ct.project_id = $projectId
       AND ct.id = ANY (ARRAY(SELECT b.id FROM before b EXCEPT SELECT unnest($ids::uuid[])))
     RETURNING ct.id),
   base AS (SELECT COALESCE((SELECT x.sort_key FROM contents x
     WHERE x.column_id = $columnId AND x.project_id = $projectId
     ORDER BY x.sort_key DESC LIMIT 1), 0) AS key),
   written AS (
     INSERT INTO contents AS ct (id, project_id, column_id, sort_key, type, style, data, revision)
     SELECT COALESCE(u.id, uuid_v7()), $projectId, col.id, base.key + u.n * ${SORT_KEY_GAP},
       u.type, u.style, u.data, ${WRITE_REVISION}
     FROM col, base, unnest($ids::uuid[], $types::content_type[], $styles::json[], $datas::json[])
       WITH ORDINALITY AS u (id, type, style, data, n)
     ON CONFLICT (project_id, id) DO UPDATE SET type = excluded.type, sort_key = excluded.sort_key,
       style = CASE WHEN ${SAME_CONTENT} THEN ct.style ELSE excluded.style END,
       data = CASE WHEN ${SAME_CONTENT} THEN ct.data ELSE excluded.data END,
       revision = CASE WHEN ${SAME_CONTENT} THEN ct.revision ELSE excluded.revision END
     WHERE ct.column_id = excluded.column_id AND ct.project_id = excluded.project_id
     RETURNING ct.id, ${jsonBytes(contentJson('ct'))}::bigint AS bytes)`,
  changed: `SELECT r.id, $columnId::uuid, NULL::uuid, b.bytes, 0::bigint
      FROM removed r JOIN before b ON b.id = r.id
    UNION ALL
    SELECT w.id, CASE WHEN b.id IS NULL THEN NULL ELSE $columnId::uuid END, $columnId::uuid,
      COALESCE(b.bytes, 0), w.bytes
      FROM written w LEFT JOIN before b ON b.id = w.id`,
  select: `SELECT (SELECT tp.tree_bytes FROM touched_project tp) AS tree_bytes`,
});

const DELETE = deleteNodeStatement<ColumnScope>('column');

const MOVE = moveNodeStatements<
  ColumnScope & MovePlacement,
  Parameters<typeof movedNode>[0] & { size: number; others: number | null }
>(
  'column',
  columnJson,
  `(SELECT c.size FROM columns c WHERE c.id = t.id AND c.project_id = $projectId) AS size,
   CASE WHEN d.id IS NULL THEN NULL ELSE ${othersWidth('d.id', 't.id')} END AS others`,
);

const COPY = copyNodeStatement<
  ColumnScope & CopyRequest & { toParentId: string | null },
  Parameters<typeof copiedNode>[0] & { size: number; others: number | null }
>('column', {
  guard: `${othersWidth('d.id', 'NULL::uuid')} + s.size <= ${ROW_WIDTH}`,
  extra: `s.size, CASE WHEN d.id IS NULL THEN NULL ELSE ${othersWidth('d.id', 'NULL::uuid')} END AS others`,
});

const COPY_DOCUMENT = copyDocumentStatement('column', columnJson);

export interface ColumnForWrite {
  revision: number;
  size: number;
  /** Summed size of the row's other columns. */
  others: number;
  contents: ContentRecord[];
}

/** A column's width beside its row's other columns, as a write found it. */
export interface ColumnWidth {
  size: number;
  /** Summed size of the other columns of the row it is (or would be) in. */
  others: number;
}

/** Statements of columns. Writes run inside a write that holds the project's lock. */
@Injectable()
export class ColumnsRepository {
  /** The reads of a column and of a row's columns, keeping what they build (CachedReads). */
  readonly reads: typeof READS;

  constructor(documents?: DocumentCache) {
    this.reads = {
      column: cachedReads(READS.column, documents),
      list: cachedReads(READS.list, documents),
    };
  }

  /** A new, empty column `scope.columnId`; undefined when the row is not on the path. */
  insert(
    round: Round,
    scope: ColumnScope,
    size: number,
    write: NodeWrite,
  ): Pending<(WrittenNode & { others: number }) | undefined> {
    return round
      .row(INSERT, { ...scope, ...write, size })
      .map((row) => row && { others: row.others, ...writtenNode(row) });
  }

  /**
   * Sets the size (null: keeps it) and the place; reports the revision the column had and the
   * width of the row's other columns. `changed` is false when neither moved.
   */
  resize(
    round: Round,
    scope: ColumnScope,
    size: number | null,
    write: NodeWrite,
  ): Pending<
    | (WrittenNode & {
        previousRevision: number;
        revision: number;
        others: number;
        changed: boolean;
      })
    | undefined
  > {
    return round.row(RESIZE, { ...scope, ...write, size }).map(
      (row) =>
        row && {
          previousRevision: row.previous_revision,
          revision: row.revision,
          others: row.others,
          changed: row.changed,
          ...writtenNode(row),
        },
    );
  }

  findForWrite(round: Round, scope: ColumnScope): Pending<ColumnForWrite | undefined> {
    return round.row(FIND, scope).map((row) => row && { ...row, contents: row.contents ?? [] });
  }

  /**
   * Makes the column's contents exactly `contents`, in one statement. Answers the project's
   * size after it (undefined when nothing changed).
   */
  replaceContents(
    round: Round,
    scope: ColumnScope,
    contents: readonly ContentWrite[],
  ): Pending<number | undefined> {
    return round
      .row(REPLACE_CONTENTS, {
        ...scope,
        ids: contents.map((content) => content.id ?? null),
        types: contents.map((content) => content.type),
        styles: contents.map((content) => JSON.stringify(content.style)),
        datas: contents.map((content) => JSON.stringify(content.data)),
      })
      .map((row) => (row?.tree_bytes == null ? undefined : Number(row.tree_bytes)));
  }

  /** The deleted column's revision, or undefined when there was none on the path. */
  delete(round: Round, scope: ColumnScope): Pending<number | undefined> {
    return round.row(DELETE, scope).map((row) => row?.previous_revision);
  }

  /** Moves the column to another row of the project (or within its own). */
  move(
    round: Round,
    scope: ColumnScope,
    placement: MovePlacement & { toParentId: string | null },
  ): Pending<(MovedNode & ColumnWidth) | undefined> {
    return round
      .row(MOVE.for(placement), { ...scope, ...placement })
      .map((row) => row && { ...movedNode(row), size: row.size, others: row.others ?? 0 });
  }

  /** Copies the column, with its contents, into a row of the project. */
  copy(
    round: Round,
    scope: ColumnScope,
    request: CopyRequest & { toParentId: string | null },
  ): {
    copied: Pending<(CopiedNode & ColumnWidth) | undefined>;
    json: Pending<string | undefined>;
  } {
    return {
      copied: round
        .row(COPY, { ...scope, ...request })
        .map((row) => row && { ...copiedNode(row), size: row.size, others: row.others ?? 0 }),
      json: round
        .row(COPY_DOCUMENT, { projectId: scope.projectId, copyId: request.copyId })
        .map((row) => row?.json),
    };
  }
}
