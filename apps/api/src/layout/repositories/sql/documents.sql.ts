import { type ParentLevel, type TreeLevel } from './tree-levels';

// The contract's response documents, built by PostgreSQL (json_build_object, json_agg, each list
// in sort-key order through the per-parent unique indexes) and sent as the text it returns: no
// response of the tree is mapped or stringified in Node. Each builder takes the alias of the
// row it renders, so a write renders the row it just wrote (RETURNING) with the same builder.
//
// A node's JSON is its "shell" (itself with an empty child list) plus its children's documents
// joined by ", ": that identity lets every write keep `children_bytes` up to date by a delta,
// and so the project's size, without rendering the tree (see changes.sql.ts).

export const iso = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const listOf = (json: string, from: string) => `COALESCE((SELECT json_agg(${json}) ${from}), '[]')`;

const EMPTY = `'[]'::json`;

export const contentJson = (ct: string) =>
  `json_build_object('_id', ${ct}.id, 'type', ${ct}.type, 'style', ${ct}.style, 'data', ${ct}.data)`;

// Each list reads its parent's children through (project_id, parent_id, sort_key): in order,
// and within one project, as every statement of the tree is.
export const contentsOf = (c: string) =>
  listOf(
    `${contentJson('ct')} ORDER BY ct.sort_key`,
    `FROM contents ct WHERE ct.project_id = ${c}.project_id AND ct.column_id = ${c}.id`,
  );

export const columnWith = (c: string, contents: string) =>
  `json_build_object('_id', ${c}.id, 'size', ${c}.size::text, 'contents', ${contents})`;
export const columnJson = (c: string) => columnWith(c, contentsOf(c));
export const columnShell = (c: string) => columnWith(c, EMPTY);

export const columnsOf = (r: string) =>
  listOf(
    `${columnJson('c')} ORDER BY c.sort_key`,
    `FROM columns c WHERE c.project_id = ${r}.project_id AND c.row_id = ${r}.id`,
  );

export const rowWith = (r: string, columns: string) =>
  `json_build_object('_id', ${r}.id, 'description', ${r}.description, 'columns', ${columns})`;
export const rowJson = (r: string) => rowWith(r, columnsOf(r));
export const rowShell = (r: string) => rowWith(r, EMPTY);

export const rowsOf = (b: string) =>
  listOf(
    `${rowJson('r')} ORDER BY r.sort_key`,
    `FROM rows r WHERE r.project_id = ${b}.project_id AND r.block_id = ${b}.id`,
  );

export const blockWith = (b: string, rows: string) =>
  `json_build_object('_id', ${b}.id, 'description', ${b}.description, 'style', ${b}.style,
     'rows', ${rows}, 'createdAt', ${iso(`${b}.created_at`)}, 'updatedAt', ${iso(`${b}.updated_at`)})`;
export const blockJson = (b: string) => blockWith(b, rowsOf(b));
export const blockShell = (b: string) => blockWith(b, EMPTY);

export const blocksOf = (p: string) =>
  listOf(`${blockJson('b')} ORDER BY b.sort_key`, `FROM blocks b WHERE b.project_id = ${p}.id`);

const projectFields = (p: string) =>
  `'_id', ${p}.id, 'title', ${p}.title, 'revision', ${p}.revision,
   'createdAt', ${iso(`${p}.created_at`)}, 'updatedAt', ${iso(`${p}.updated_at`)}`;
/** A project as listed, with the caller's `role` in it (a column of `p`). */
export const projectSummaryJson = (p: string) =>
  `json_build_object(${projectFields(p)}, 'role', ${p}.role)`;
export const projectJson = (p: string) =>
  `json_build_object(${projectFields(p)}, 'blocks', ${blocksOf(p)})`;
export const projectShell = (p: string) =>
  `json_build_object(${projectFields(p)}, 'blocks', ${EMPTY})`;

/** The document of a node of each level, over the alias of its row. */
export const nodeJson = (level: TreeLevel, alias: string): string => NODE_JSON[level](alias);

const NODE_JSON: Record<TreeLevel, (alias: string) => string> = {
  project: projectJson,
  block: blockJson,
  row: rowJson,
  column: columnJson,
  content: contentJson,
};

/** The list of a parent's children, over the alias of the parent's row. */
export const childrenJson = (parent: ParentLevel, alias: string): string =>
  CHILDREN_JSON[parent](alias);

const CHILDREN_JSON: Record<ParentLevel, (alias: string) => string> = {
  project: blocksOf,
  block: rowsOf,
  row: columnsOf,
  column: contentsOf,
};

/** The length in bytes of a JSON expression as text, as the answer carries it. */
export const jsonBytes = (json: string) => `octet_length((${json})::text)`;

/** Bytes of a node in its parent's list: its shell and its children. */
export const nodeBytes = {
  block: (b: string) => `(${jsonBytes(blockShell(b))} + ${b}.children_bytes)`,
  row: (r: string) => `(${jsonBytes(rowShell(r))} + ${r}.children_bytes)`,
  column: (c: string) => `(${jsonBytes(columnShell(c))} + ${c}.children_bytes)`,
  content: (ct: string) => jsonBytes(contentJson(ct)),
} as const;

/** Bytes of a project's whole JSON answer. */
export const projectBytes = (p: string) => `(${jsonBytes(projectShell(p))} + ${p}.children_bytes)`;
