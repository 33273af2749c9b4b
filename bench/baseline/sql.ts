// The baseline's SQL. PostgreSQL builds each response document itself (json_build_object and
// json_agg, each list in position order, through the per-parent indexes), and the server sends
// the text as it comes: no parsing, mapping or re-serialising in Node. Every statement that
// names a resource checks its whole path and the owner, like the service's scope filters.

const iso = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const contentJson = (ct: string) =>
  `json_build_object('_id', ${ct}.id, 'type', ${ct}.type, 'style', ${ct}.style, 'data', ${ct}.data)`;

const contentsOf = (columnId: string) =>
  `COALESCE((SELECT json_agg(${contentJson('ct')} ORDER BY ct.position)
     FROM contents ct WHERE ct.column_id = ${columnId}), '[]'::json)`;

const columnJson = (c: string) =>
  `json_build_object('_id', ${c}.id, 'size', ${c}.size::text, 'contents', ${contentsOf(`${c}.id`)})`;

const columnsOf = (rowId: string) =>
  `COALESCE((SELECT json_agg(${columnJson('c')} ORDER BY c.position)
     FROM columns c WHERE c.row_id = ${rowId}), '[]'::json)`;

const rowJson = (r: string) =>
  `json_build_object('_id', ${r}.id, 'description', ${r}.description, 'columns', ${columnsOf(`${r}.id`)})`;

const rowsOf = (blockId: string) =>
  `COALESCE((SELECT json_agg(${rowJson('r')} ORDER BY r.position)
     FROM rows r WHERE r.block_id = ${blockId}), '[]'::json)`;

const blockJson = (b: string) =>
  `json_build_object('_id', ${b}.id, 'description', ${b}.description, 'style', ${b}.style,
     'rows', ${rowsOf(`${b}.id`)}, 'createdAt', ${iso(`${b}.created_at`)}, 'updatedAt', ${iso(`${b}.updated_at`)})`;

const blocksOf = (projectId: string) =>
  `COALESCE((SELECT json_agg(${blockJson('b')} ORDER BY b.position)
     FROM blocks b WHERE b.project_id = ${projectId}), '[]'::json)`;

/** $1 token hash (SHA-256, hex). */
export const AUTHENTICATE = `
  SELECT a.id, a.username FROM access_tokens t JOIN accounts a ON a.id = t.account_id
  WHERE t.token_hash = $1 AND t.expires_at > now()`;

/** $1 project, $2 account. */
export const PROJECT_TREE = `
  SELECT json_build_object('_id', p.id, 'title', p.title, 'createdAt', ${iso('p.created_at')},
    'updatedAt', ${iso('p.updated_at')}, 'blocks', ${blocksOf('p.id')})::text AS json
  FROM projects p WHERE p.id = $1 AND p.owner_id = $2`;

/** $1 row, $2 block, $3 project, $4 account. */
export const ROW_COLUMNS = `
  SELECT ${columnsOf('r.id')}::text AS json
  FROM rows r JOIN projects p ON p.id = r.project_id
  WHERE r.id = $1 AND r.block_id = $2 AND r.project_id = $3 AND p.owner_id = $4`;

/** $1 content, $2 column, $3 row, $4 block, $5 project, $6 account. */
export const CONTENT = `
  SELECT ${contentJson('ct')}::text AS json
  FROM contents ct
    JOIN columns c ON c.id = ct.column_id
    JOIN rows r ON r.id = c.row_id
    JOIN projects p ON p.id = ct.project_id
  WHERE ct.id = $1 AND ct.column_id = $2 AND c.row_id = $3 AND r.block_id = $4
    AND ct.project_id = $5 AND p.owner_id = $6`;

/**
 * The lock every change to a column's contents takes first (as the service's lockColumn), also
 * checking the path. $1 column, $2 row, $3 block, $4 project, $5 account.
 */
export const LOCK_COLUMN = `
  SELECT 1 FROM columns c
    JOIN rows r ON r.id = c.row_id
    JOIN projects p ON p.id = c.project_id
  WHERE c.id = $1 AND c.row_id = $2 AND r.block_id = $3 AND c.project_id = $4 AND p.owner_id = $5
  FOR UPDATE OF c`;

/** Makes room at a requested position. $1 column, $2 position. */
export const OPEN_CONTENT_SLOT = `
  UPDATE contents SET position = position + 1 WHERE column_id = $1 AND position >= $2::bigint`;

/**
 * Inserts at the requested position or, when it is null or past the end, at the end (LEAST
 * ignores nulls). Runs after LOCK_COLUMN, so the count sees every committed sibling.
 * $1 id, $2 project, $3 column, $4 position or null, $5 type, $6 style, $7 data.
 */
export const INSERT_CONTENT = `
  INSERT INTO contents AS ct (id, project_id, column_id, position, type, style, data)
  VALUES ($1, $2, $3, LEAST($4::bigint, (SELECT count(*) FROM contents WHERE column_id = $3))::int,
          $5::content_type, $6::jsonb, $7::jsonb)
  RETURNING ${contentJson('ct')}::text AS json`;

/** Deletes a content of the locked column and closes the gap. $1 content, $2 column. */
export const DELETE_CONTENT = `
  WITH gone AS (DELETE FROM contents WHERE id = $1 AND column_id = $2 RETURNING position AS at),
    shifted AS (UPDATE contents SET position = position - 1 FROM gone
                WHERE contents.column_id = $2 AND contents.position > gone.at)
  SELECT count(*)::int AS deleted FROM gone`;

/**
 * The lock a resize takes first (as the service's lockRow: the row width check is only sound
 * while the row is locked), also checking the path down to the column.
 * $1 row, $2 block, $3 project, $4 account, $5 column.
 */
export const LOCK_ROW_OF_COLUMN = `
  SELECT 1 FROM rows r JOIN projects p ON p.id = r.project_id
  WHERE r.id = $1 AND r.block_id = $2 AND r.project_id = $3 AND p.owner_id = $4
    AND EXISTS (SELECT 1 FROM columns c WHERE c.id = $5 AND c.row_id = r.id AND c.project_id = $3)
  FOR UPDATE OF r`;

/** Resizes when the row keeps within 12 units; no row back means it would not. $1 column, $2 size. */
export const RESIZE_COLUMN = `
  UPDATE columns AS c SET size = $2
  WHERE c.id = $1
    AND $2 + (SELECT COALESCE(sum(o.size), 0) FROM columns o WHERE o.row_id = c.row_id AND o.id <> c.id) <= 12
  RETURNING ${columnJson('c')}::text AS json`;

/** What the other columns of a column's row use. $1 column. */
export const USED_BY_OTHERS = `
  SELECT COALESCE(sum(o.size), 0)::int AS used
  FROM columns c JOIN columns o ON o.row_id = c.row_id AND o.id <> c.id WHERE c.id = $1`;
