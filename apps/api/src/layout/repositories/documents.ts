import { Prisma } from '../../generated/prisma/client';
import { SerializedJson } from '../../common/json/serialized-json';
import { type SqlRunner } from '../../database/sql-runner';

// The contract's response documents, built by PostgreSQL (json_build_object, json_agg, each list
// in position order through the per-parent indexes) and sent as the text it returns: a read
// never builds, maps and re-stringifies the tree in Node. They hold exactly what
// layout.presenter.ts makes of a record (the writes still answer through it); the e2e suite
// checks both against the OpenAPI schemas and against each other.

const iso = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const listOf = (json: string, from: string) => `COALESCE((SELECT json_agg(${json}) ${from}), '[]')`;

const contentJson = (ct: string) =>
  `json_build_object('_id', ${ct}.id, 'type', ${ct}.type, 'style', ${ct}.style, 'data', ${ct}.data)`;

const contentsOf = (columnId: string) =>
  listOf(
    `${contentJson('ct')} ORDER BY ct.position`,
    `FROM contents ct WHERE ct.column_id = ${columnId}`,
  );

const columnJson = (c: string) =>
  `json_build_object('_id', ${c}.id, 'size', ${c}.size::text, 'contents', ${contentsOf(`${c}.id`)})`;

const columnsOf = (rowId: string) =>
  listOf(`${columnJson('c')} ORDER BY c.position`, `FROM columns c WHERE c.row_id = ${rowId}`);

const rowJson = (r: string) =>
  `json_build_object('_id', ${r}.id, 'description', ${r}.description,
     'columns', ${columnsOf(`${r}.id`)})`;

const rowsOf = (blockId: string) =>
  listOf(`${rowJson('r')} ORDER BY r.position`, `FROM rows r WHERE r.block_id = ${blockId}`);

const blockJson = (b: string) =>
  `json_build_object('_id', ${b}.id, 'description', ${b}.description, 'style', ${b}.style,
     'rows', ${rowsOf(`${b}.id`)},
     'createdAt', ${iso(`${b}.created_at`)}, 'updatedAt', ${iso(`${b}.updated_at`)})`;

const blocksOf = (projectId: string) =>
  listOf(
    `${blockJson('b')} ORDER BY b.position`,
    `FROM blocks b WHERE b.project_id = ${projectId}`,
  );

const projectJson = (p: string) =>
  `json_build_object('_id', ${p}.id, 'title', ${p}.title,
     'createdAt', ${iso(`${p}.created_at`)}, 'updatedAt', ${iso(`${p}.updated_at`)},
     'blocks', ${blocksOf(`${p}.id`)})`;

/**
 * Each document as a select expression over the aliases of scope-sql.ts: pair it with the match
 * of the resource it names (a list with the match of its parent).
 */
export const DOCUMENT = {
  project: Prisma.raw(projectJson('p')),
  blocksOfProject: Prisma.raw(blocksOf('p.id')),
  block: Prisma.raw(blockJson('b')),
  rowsOfBlock: Prisma.raw(rowsOf('b.id')),
  row: Prisma.raw(rowJson('r')),
  columnsOfRow: Prisma.raw(columnsOf('r.id')),
  column: Prisma.raw(columnJson('c')),
  contentsOfColumn: Prisma.raw(contentsOf('c.id')),
  content: Prisma.raw(contentJson('ct')),
} as const;

/** The document, or null when the match finds nothing (not there, or not the caller's). */
export function readDocument<T>(
  sql: SqlRunner,
  document: Prisma.Sql,
  match: Prisma.Sql,
): Promise<SerializedJson<T> | null> {
  return documentOf<T>(sql, Prisma.sql`SELECT ${document}::text AS json ${match}`);
}

/** Runs a statement that answers with a document as text in `json` (or with no row). */
export async function documentOf<T>(
  sql: SqlRunner,
  statement: Prisma.Sql,
): Promise<SerializedJson<T> | null> {
  const [row] = await sql.rows<{ json: string }>(statement);
  return row ? new SerializedJson<T>(row.json) : null;
}
