import { sqlStatement } from '../../../database/sql-statement';
import { type ContentRecord } from '../../layout.records';
import { treeWriteStatement } from './changes.sql';
import { othersWidth } from './column-width.sql';
import { contentJson, jsonBytes, nodeBytes } from './documents.sql';
import { lockedPath, WRITE_REVISION } from './paths.sql';
import { SORT_KEY_GAP, statementName } from './tree-levels';

// A column's `contents`, written as its complete new list in one statement.

/** The column on the request's path with its contents, in order, for the plan of a new list. */
export const FIND_CONTENTS = sqlStatement<
  { projectId: string; blockId: string; rowId: string; columnId: string },
  { revision: number; size: number; others: number; contents: ContentRecord[] | null }
>(
  statementName('column', 'find-contents'),
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
export const REPLACE_CONTENTS = treeWriteStatement<
  {
    projectId: string;
    blockId: string;
    rowId: string;
    columnId: string;
    ids: (string | null)[];
    types: string[];
    styles: string[];
    datas: string[];
  },
  { tree_bytes: string | null }
>(statementName('column', 'replace-contents'), 'content', {
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
