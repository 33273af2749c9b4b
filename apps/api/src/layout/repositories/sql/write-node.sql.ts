import { sqlStatement, type SqlStatement } from '../../../database/sql-statement';
import { treeWriteStatement } from './changes.sql';
import { nodeBytes, nodeJson } from './documents.sql';
import { endOfList } from './new-node.sql';
import { levelsBeneath, newSubtree, sizesOf } from './new-subtree.sql';
import { lockedPath, WRITE_REVISION, WRITE_TIME } from './paths.sql';
import {
  type ChildLevel,
  parentOf,
  type StoredMember,
  statementName,
  TREE_LEVELS,
} from './tree-levels';

// The writes of one node's own members, for every level alike: what differs between levels is
// the members each stores (TREE_LEVELS) and what a parent's rule needs reported (`extra`).

/** What an insert reports. */
export interface InsertedRow {
  json: string;
  /** Children of the parent after the insert (the node included). */
  siblings: number;
  /** Bytes of the project's whole answer after it. */
  tree_bytes: string;
}

/** What an update reports. */
export interface UpdatedRow {
  /** The node's revision before the update (its tag then), for `If-Match`. */
  previous_revision: number;
  /** Whether any member changed (a node whose members stay is not written). */
  changed: boolean;
  /** The node's document after the update. */
  json: string;
  /** Bytes of the project's whole answer after it; null when nothing changed. */
  tree_bytes: string | null;
}

const members = (level: ChildLevel): readonly StoredMember[] => TREE_LEVELS[level].members;

/** A member's parameter, cast to its type. */
const param = (member: StoredMember) => `$${camel(member.column)}::${member.type}`;

/** A member as it is compared: JSON by value (jsonb), the rest as stored. */
const compared = (member: StoredMember, value: string) =>
  member.json ? `(${value})::jsonb` : value;

const camel = (column: string) => column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * Appends the new node `$<idParam>` (its id made by the caller, so that a statement of the same
 * round can name it) with every member given, at the end of its parent's list, with the nodes
 * beneath it that the arrays of newSubtree give; nothing when the parent is not on the
 * request's path. Its counts and bytes are its new subtree's, worked out before it is inserted.
 */
export function insertNodeStatement<P extends object, R extends InsertedRow>(
  level: ChildLevel,
  extra = '',
): SqlStatement<P, R> {
  const { table, idParam, parentColumn } = TREE_LEVELS[level];
  const parent = parentOf(level);
  const { alias: up } = TREE_LEVELS[parent];
  const child = levelsBeneath(level)[0];
  const subtree = newSubtree(level, {
    project: '$projectId',
    revision: WRITE_REVISION,
    gate: 'inserted',
  });
  // A block's parent column is its project's, which every row has.
  const own = parent === 'project' ? [] : [parentColumn];
  const lists = child === undefined ? ['revision'] : ['revision', 'list_revision'];
  const counted = child === undefined ? [] : ['child_count', 'children_bytes'];
  const sizeOf = (what: string) =>
    `COALESCE((SELECT s.${what} FROM ${sizesOf(child)} s WHERE s.parent_id = $${idParam}::uuid), 0)`;
  const columns = [
    'id',
    'project_id',
    ...own,
    'sort_key',
    ...members(level).map((m) => m.column),
    ...lists,
    ...counted,
  ];
  const values = [
    `$${idParam}::uuid`,
    '$projectId',
    ...own.map(() => 'p.id'),
    endOfList(level, 'p.id'),
    ...members(level).map(param),
    ...lists.map(() => WRITE_REVISION),
    ...counted.map(sizeOf),
  ];
  // A leaf's document is all its bytes: measured on the text already built.
  const bytes = child === undefined ? 'octet_length(i.json)::bigint' : 'i.bytes';
  return treeWriteStatement(statementName(level, 'insert'), level, {
    parents: 'one',
    with: [
      ...subtree.values,
      `parent AS (SELECT ${up}.id ${lockedPath(parent)})`,
      `inserted AS (
       INSERT INTO ${table} AS x (${columns.join(', ')})
       SELECT ${values.join(', ')}
       FROM parent p
       RETURNING x.id, ${child === undefined ? '' : `${nodeBytes[level]('x')} AS bytes, `}(${nodeJson(level, 'x')})::text AS json)`,
      ...subtree.inserts,
    ].join(',\n'),
    changed: `SELECT i.id, NULL::uuid, p.id, 0::bigint, ${bytes} FROM inserted i, parent p`,
    select: `SELECT i.json, tu.child_count AS siblings, tp.tree_bytes${extra === '' ? '' : `, ${extra}`}
     FROM inserted i, parent p, touched_${parent} tu, touched_project tp`,
  });
}

/**
 * Sets the members of the node of `level` on the request's path that are given (a null
 * parameter keeps its member), if that changes any of them: JSON compared by value, and kept as
 * written when equal. It reports the revision the node had and its document either way.
 */
export function updateNodeStatement<P extends object, R extends UpdatedRow>(
  level: ChildLevel,
  extra = '',
): SqlStatement<P, R> {
  const { table, alias, parentColumn, stamped } = TREE_LEVELS[level];
  const given = members(level);
  const next = (member: StoredMember) =>
    member.json
      ? `CASE WHEN ${param(member)} IS NULL OR ${param(member)}::jsonb = x.${member.column}::jsonb
           THEN x.${member.column} ELSE ${param(member)} END`
      : `COALESCE(${param(member)}, x.${member.column})`;
  const differs = `ROW(${given.map((m) => compared(m, `COALESCE(${param(m)}, t.${m.column})`)).join(', ')})
    IS DISTINCT FROM ROW(${given.map((m) => compared(m, `t.${m.column}`)).join(', ')})`;
  const sets = [
    ...given.map((member) => `${member.column} = ${next(member)}`),
    `revision = ${WRITE_REVISION}`,
    ...(stamped ? [`updated_at = ${WRITE_TIME}`] : []),
  ];
  return treeWriteStatement(statementName(level, 'update'), level, {
    parents: 'one',
    with: `target AS (SELECT ${alias}.*, ${nodeBytes[level](alias)} AS bytes ${lockedPath(level)}),
     updated AS (
       UPDATE ${table} x SET ${sets.join(', ')}
       FROM target t
       WHERE x.id = t.id AND x.project_id = $projectId AND ${differs}
       RETURNING x.id, ${nodeBytes[level]('x')} AS bytes, (${nodeJson(level, 'x')})::text AS json)`,
    changed: `SELECT t.id, t.${parentColumn}, t.${parentColumn}, t.bytes, u.bytes
      FROM updated u JOIN target t ON t.id = u.id`,
    select: `SELECT t.revision AS previous_revision, u.json IS NOT NULL AS changed,
       COALESCE(u.json, (${nodeJson(level, 't')})::text) AS json,
       (SELECT tp.tree_bytes FROM touched_project tp) AS tree_bytes${extra === '' ? '' : `, ${extra}`}
     FROM target t LEFT JOIN updated u ON true`,
  });
}

/** The members of the node of `level` on the request's path, with its revision, under the lock. */
export function findNodeStatement<P extends object, R extends { revision: number }>(
  level: ChildLevel,
): SqlStatement<P, R> {
  const { alias } = TREE_LEVELS[level];
  const columns = ['revision', ...members(level).map((m) => m.column)];
  return sqlStatement(
    statementName(level, 'find-for-write'),
    `SELECT ${columns.map((c) => `${alias}.${c}`).join(', ')} ${lockedPath(level)}`,
  );
}
