import { Injectable } from '@nestjs/common';
import { type SqlSession } from '../../database/sql-session';
import { sqlStatement } from '../../database/sql-statement';
import { type ContentRecord, type ContentWrite } from '../layout.records';
import { type ColumnScope, type RowScope } from '../layout.scopes';
import { deleteNodeStatement } from './sql/delete-node.sql';
import {
  columnJson,
  columnShell,
  columnsOf,
  contentJson,
  jsonBytes,
  nodeBytes,
} from './sql/documents.sql';
import { lockedPath, ownedPath, WRITE_REVISION } from './sql/paths.sql';
import { TaggedReads } from './sql/tagged-reads';
import { insertedDelta, newNodeSortKey } from './sql/new-node.sql';
import { SORT_KEY_GAP } from './sql/tree-levels';
import { touchAncestors } from './sql/touch.sql';
import { type NodeWrite, type WrittenNode, writtenNode } from './written-node';

type Written = { json: string; child_count: number; tree_bytes: string };

/** The summed size of the row's columns other than `$columnId` (all of them for a new one). */
const OTHERS_WIDTH = `SELECT COALESCE(sum(o.size), 0)::int AS others FROM columns o
  WHERE o.row_id = $rowId AND o.project_id = $projectId AND o.id IS DISTINCT FROM $columnId::uuid`;

const INSERT = sqlStatement<
  RowScope & NodeWrite & { size: number; columnId: null },
  Written & { id: string; others: number }
>(
  'column.insert',
  `WITH parent AS (SELECT r.id, r.child_count ${lockedPath('row')}),
   width AS (${OTHERS_WIDTH}),
   inserted AS (
     INSERT INTO columns AS c (project_id, row_id, sort_key, size, revision, list_revision)
     SELECT $projectId, p.id,
       ${newNodeSortKey('column', 'p.id')},
       $size, ${WRITE_REVISION}, ${WRITE_REVISION}
     FROM parent p
     RETURNING c.id, ${nodeBytes.column('c')} AS bytes, (${columnJson('c')})::text AS json),
   ${insertedDelta()},
   ${touchAncestors('row')}
   SELECT i.id, i.json, w.others, tr.child_count, tp.tree_bytes
   FROM inserted i, width w, touched_row tr, touched_project tp`,
);

// The resize, the editor's most frequent write: one statement that reports what the row-width
// rule needs (the other columns' sizes, read after the project lock, so current).
const RESIZE = sqlStatement<
  ColumnScope & NodeWrite & { size: number | null },
  Written & { previous_revision: number; revision: number; others: number; changed: boolean }
>(
  'column.resize',
  `WITH target AS (
     SELECT c.id, c.project_id, c.revision, c.size, ${jsonBytes(columnShell('c'))} AS shell_bytes
     ${lockedPath('column')}),
   width AS (${OTHERS_WIDTH}),
   updated AS (
     UPDATE columns c SET size = COALESCE($size::smallint, c.size),
       revision = CASE WHEN c.size <> COALESCE($size::smallint, c.size) THEN ${WRITE_REVISION}
         ELSE c.revision END,
       sort_key = COALESCE($sortKey::bigint, c.sort_key)
     FROM target t
     WHERE c.id = t.id AND c.project_id = $projectId
       AND (t.size <> COALESCE($size::smallint, t.size) OR $sortKey::bigint IS NOT NULL)
     RETURNING c.revision, ${jsonBytes(columnShell('c'))} AS shell_bytes,
       (${columnJson('c')})::text AS json),
   delta AS (SELECT u.shell_bytes - t.shell_bytes AS bytes, 0 AS count FROM updated u, target t),
   ${touchAncestors('row')}
   SELECT t.revision AS previous_revision, COALESCE(u.revision, t.revision) AS revision,
     w.others, u.json IS NOT NULL AS changed,
     COALESCE(u.json, (${columnJson('t')})::text) AS json,
     COALESCE(tr.child_count, 0) AS child_count, tp.tree_bytes
   FROM target t CROSS JOIN width w LEFT JOIN updated u ON true
     LEFT JOIN touched_row tr ON true LEFT JOIN touched_project tp ON true`,
);

const FIND = sqlStatement<
  ColumnScope,
  { revision: number; size: number; others: number; contents: ContentRecord[] | null }
>(
  'column.find-for-write',
  `SELECT c.revision, c.size, (${OTHERS_WIDTH}) AS others,
     (SELECT json_agg(json_build_object('id', ct.id, 'type', ct.type, 'style', ct.style,
        'data', ct.data) ORDER BY ct.sort_key)
      FROM contents ct WHERE ct.column_id = c.id AND ct.project_id = $projectId) AS contents
   ${lockedPath('column')}`,
);

// The column's contents become exactly `items`, in that order: listed ids are updated in place
// (their revision moves only when their representation changes), the others created; contents
// not listed go. New keys start above every current key, so no two rows ever share one. Style
// and data are compared as jsonb: the same values in another key order or spacing are the same
// content, which keeps its stored text, and so its bytes and its tag.
const SAME_CONTENT = `(ct.type, ct.style::jsonb, ct.data::jsonb)
  IS NOT DISTINCT FROM (excluded.type, excluded.style::jsonb, excluded.data::jsonb)`;
const REPLACE_CONTENTS = sqlStatement<
  ColumnScope & {
    ids: (string | null)[];
    types: string[];
    styles: string[];
    datas: string[];
  },
  never
>(
  'column.replace-contents',
  `WITH removed AS (
     DELETE FROM contents ct WHERE ct.column_id = $columnId AND ct.project_id = $projectId
       AND NOT (ct.id = ANY (array_remove($ids::uuid[], NULL))) AND ${WRITE_REVISION} IS NOT NULL),
   base AS (SELECT COALESCE((SELECT x.sort_key FROM contents x
     WHERE x.column_id = $columnId AND x.project_id = $projectId
     ORDER BY x.sort_key DESC LIMIT 1), 0) AS key)
   INSERT INTO contents AS ct (id, project_id, column_id, sort_key, type, style, data, revision)
   SELECT COALESCE(u.id, uuid_v7()), $projectId, $columnId, base.key + u.n * ${SORT_KEY_GAP},
     u.type, u.style, u.data, ${WRITE_REVISION}
   FROM base, unnest($ids::uuid[], $types::content_type[], $styles::json[], $datas::json[])
     WITH ORDINALITY AS u (id, type, style, data, n)
   WHERE ${WRITE_REVISION} IS NOT NULL
   ON CONFLICT (id) DO UPDATE SET type = excluded.type, sort_key = excluded.sort_key,
     style = CASE WHEN ${SAME_CONTENT} THEN ct.style ELSE excluded.style END,
     data = CASE WHEN ${SAME_CONTENT} THEN ct.data ELSE excluded.data END,
     revision = CASE WHEN ${SAME_CONTENT} THEN ct.revision ELSE excluded.revision END
   WHERE ct.column_id = excluded.column_id AND ct.project_id = excluded.project_id`,
);

// After its contents were replaced: the column's counters from its contents (a cost that grows
// with the request, which carries them all), its size and place, and the change up the path.
const REFRESH = sqlStatement<ColumnScope & NodeWrite & { size: number | null }, Written>(
  'column.refresh',
  `WITH target AS (SELECT c.id, ${nodeBytes.column('c')} AS bytes ${lockedPath('column')}),
   counted AS (
     SELECT count(*)::int AS n,
       COALESCE(sum(${jsonBytes(contentJson('ct'))}), 0) + 2 * GREATEST(count(*) - 1, 0) AS bytes
     FROM contents ct WHERE ct.column_id = $columnId AND ct.project_id = $projectId),
   updated AS (
     UPDATE columns c SET size = COALESCE($size::smallint, c.size),
       sort_key = COALESCE($sortKey::bigint, c.sort_key),
       revision = ${WRITE_REVISION}, list_revision = ${WRITE_REVISION},
       child_count = k.n, children_bytes = k.bytes
     FROM target t, counted k WHERE c.id = t.id AND c.project_id = $projectId
     RETURNING ${nodeBytes.column('c')} AS bytes, (${columnJson('c')})::text AS json),
   delta AS (SELECT u.bytes - t.bytes AS bytes, 0 AS count FROM updated u, target t),
   ${touchAncestors('row')}
   SELECT u.json, tr.child_count, tp.tree_bytes
   FROM updated u, touched_row tr, touched_project tp`,
);

const DELETE = deleteNodeStatement<ColumnScope>('column');

export interface ColumnForWrite {
  revision: number;
  size: number;
  /** Summed size of the row's other columns. */
  others: number;
  contents: ContentRecord[];
}

/** Statements of columns. Writes run inside a write that holds the project's lock. */
@Injectable()
export class ColumnsRepository {
  readonly reads = {
    column: new TaggedReads<ColumnScope>(
      'column',
      ownedPath('column'),
      'c.revision',
      columnJson('c'),
    ),
    list: new TaggedReads<RowScope>('columns', ownedPath('row'), 'r.list_revision', columnsOf('r')),
  };

  /** A new, empty column; undefined when the row is not on the path. */
  async insert(
    tx: SqlSession,
    scope: RowScope,
    size: number,
    write: NodeWrite,
  ): Promise<(WrittenNode & { id: string; others: number }) | undefined> {
    const row = await tx.row(INSERT, { ...scope, ...write, size, columnId: null });
    return row && { id: row.id, others: row.others, ...writtenNode(row) };
  }

  /**
   * Sets the size (null: keeps it) and the place; reports the revision the column had and the
   * width of the row's other columns. `changed` is false when neither moved.
   */
  async resize(
    tx: SqlSession,
    scope: ColumnScope,
    size: number | null,
    write: NodeWrite,
  ): Promise<
    | (Omit<WrittenNode, 'treeBytes'> & {
        previousRevision: number;
        revision: number;
        others: number;
        changed: boolean;
        treeBytes: number | undefined;
      })
    | undefined
  > {
    const row = await tx.row(RESIZE, { ...scope, ...write, size });
    return (
      row && {
        previousRevision: row.previous_revision,
        revision: row.revision,
        others: row.others,
        changed: row.changed,
        json: row.json,
        siblings: row.child_count,
        treeBytes: row.changed ? Number(row.tree_bytes) : undefined,
      }
    );
  }

  async findForWrite(tx: SqlSession, scope: ColumnScope): Promise<ColumnForWrite | undefined> {
    const row = await tx.row(FIND, scope);
    return row && { ...row, contents: row.contents ?? [] };
  }

  /** Makes the column's contents exactly `contents`, then updates the column and its path. */
  async replaceContents(
    tx: SqlSession,
    scope: ColumnScope,
    contents: readonly ContentWrite[],
    write: NodeWrite & { size: number | null },
  ): Promise<WrittenNode> {
    await tx.rows(REPLACE_CONTENTS, {
      ...scope,
      ids: contents.map((content) => content.id ?? null),
      types: contents.map((content) => content.type),
      styles: contents.map((content) => JSON.stringify(content.style)),
      datas: contents.map((content) => JSON.stringify(content.data)),
    });
    const row = await tx.row(REFRESH, { ...scope, ...write });
    if (!row) throw new Error('column.refresh: the column found under the lock is gone');
    return writtenNode(row);
  }

  /** The deleted column's revision, or undefined when there was none on the path. */
  async delete(tx: SqlSession, scope: ColumnScope): Promise<number | undefined> {
    return (await tx.row(DELETE, scope))?.previous_revision;
  }
}
