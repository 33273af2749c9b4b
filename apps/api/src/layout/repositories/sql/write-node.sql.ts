import { type SqlStatement } from '../../../database/sql-statement';
import { treeWriteStatement } from './changes.sql';
import { nodeBytes, nodeJson } from './documents.sql';
import { endOfList } from './new-node.sql';
import { levelsBeneath, newSubtree, sizesOf } from './new-subtree.sql';
import { lockedPath, lockedPaths, WRITE_REVISION, WRITE_TIME } from './paths.sql';
import {
  type ChildLevel,
  levelAndAncestors,
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
 * What an update sets on `x`, the row it writes, and whether that changes the node as it was
 * (`t`): `given(member)` is the value an update gives a member, NULL when it leaves it out
 * (kept, or reset: StoredMember.reset). JSON is compared by value, and kept as written when
 * equal.
 */
function memberWrites(level: ChildLevel, given: (member: StoredMember) => string) {
  const { stamped } = TREE_LEVELS[level];
  const all = members(level);
  // What a member left out becomes on the row `row`: itself, unless what resets it changes.
  const kept = (member: StoredMember, row: string) => {
    const { reset } = member;
    if (reset === undefined) return `${row}.${member.column}`;
    const by = all.find((m) => m.column === reset.by)!;
    return `CASE WHEN COALESCE(${given(by)}, ${row}.${by.column}) = ${row}.${by.column}
      THEN ${row}.${member.column} ELSE ${reset.to} END`;
  };
  const next = (member: StoredMember) => {
    if (!member.json) return `COALESCE(${given(member)}, ${kept(member, 'x')})`;
    const same = `${given(member)}::jsonb = x.${member.column}::jsonb`;
    return member.reset === undefined
      ? `CASE WHEN ${given(member)} IS NULL OR ${same} THEN x.${member.column} ELSE ${given(member)} END`
      : `CASE WHEN ${given(member)} IS NULL THEN ${kept(member, 'x')}
           WHEN ${same} THEN x.${member.column} ELSE ${given(member)} END`;
  };
  const differs = `ROW(${all.map((m) => compared(m, `COALESCE(${given(m)}, ${kept(m, 't')})`)).join(', ')})
    IS DISTINCT FROM ROW(${all.map((m) => compared(m, `t.${m.column}`)).join(', ')})`;
  const sets = [
    ...all.map((member) => `${member.column} = ${next(member)}`),
    `revision = ${WRITE_REVISION}`,
    ...(stamped ? [`updated_at = ${WRITE_TIME}`] : []),
  ];
  return { sets: sets.join(', '), differs };
}

/** The UPDATE of the nodes of `target t` (and its RETURNING) whose members `given` changes. */
function updatedNodes(level: ChildLevel, given: (member: StoredMember) => string): string {
  const { table } = TREE_LEVELS[level];
  const { sets, differs } = memberWrites(level, given);
  return `updated AS (
       UPDATE ${table} x SET ${sets}
       FROM target t
       WHERE x.id = t.id AND x.project_id = $projectId AND ${differs}
       RETURNING x.id, ${nodeBytes[level]('x')} AS bytes, (${nodeJson(level, 'x')})::text AS json)`;
}

/** The `changed` rows of an update: its nodes changed in place, under the parent they had. */
const changedInPlace = (parentColumn: string) =>
  `SELECT t.id, t.${parentColumn}, t.${parentColumn}, t.bytes, u.bytes
      FROM updated u JOIN target t ON t.id = u.id`;

/**
 * Sets the members of the node of `level` on the request's path that are given (a null
 * parameter keeps its member, or resets it: StoredMember.reset), if that changes any of them.
 * It reports the revision the node had and its document either way.
 */
export function updateNodeStatement<P extends object, R extends UpdatedRow>(
  level: ChildLevel,
  extra = '',
): SqlStatement<P, R> {
  const { alias, parentColumn } = TREE_LEVELS[level];
  return treeWriteStatement(statementName(level, 'update'), level, {
    parents: 'one',
    with: `target AS (SELECT ${alias}.*, ${nodeBytes[level](alias)} AS bytes ${lockedPath(level)}),
     ${updatedNodes(level, param)}`,
    changed: changedInPlace(parentColumn),
    select: `SELECT t.revision AS previous_revision, u.json IS NOT NULL AS changed,
       COALESCE(u.json, (${nodeJson(level, 't')})::text) AS json,
       (SELECT tp.tree_bytes FROM touched_project tp) AS tree_bytes${extra === '' ? '' : `, ${extra}`}
     FROM target t LEFT JOIN updated u ON true`,
  });
}

/** What updateEachStatement reports of each update, by its place (`n`, from 1) in the arrays. */
export interface UpdatedEachRow extends Omit<UpdatedRow, 'previous_revision'> {
  n: number;
  /** Null when no node is at the end of its path. */
  previous_revision: number | null;
}

/** The path parameters of a node of `level` (its own id and its ancestors'), but the project's. */
export const pathParams = (level: ChildLevel): string[] =>
  levelAndAncestors(level)
    .filter((l): l is ChildLevel => l !== 'project')
    .map((l) => TREE_LEVELS[l].idParam);

/** The array parameter of several updates that holds their `name` (a path parameter or a member). */
export const eachParam = (name: string): string => `${camel(name)}s`;

/**
 * Several updates of the members of nodes of `level`, as updateNodeStatement would make them
 * one after another, in one statement: the n-th element of every array parameter (a path
 * parameter's, `eachParam`, and a member's, NULL to keep it) is the n-th update. Their nodes
 * must differ (two updates of one node would be one row here). The ancestors and the revision
 * follow once for all of them. Each update reports what updateNodeStatement would have: its
 * node's revision before and its document, and the project's size as it stood right after it
 * (the size after all of them, less what the later ones added).
 */
export function updateEachStatement<P extends object, R extends UpdatedEachRow>(
  level: ChildLevel,
): SqlStatement<P, R> {
  const { alias, parentColumn } = TREE_LEVELS[level];
  const path = pathParams(level);
  const given = members(level);
  const arrays = [
    ...path.map((name) => `$${eachParam(name)}::uuid[]`),
    ...given.map((m) => `$${eachParam(m.column)}::${m.type}[]`),
  ];
  const columns = [...path.map((name) => `at_${name}`), ...given.map((m) => `to_${m.column}`)];
  const source = `input i`;
  const ids = Object.fromEntries(path.map((name) => [name, `i.at_${name}`]));
  return treeWriteStatement(statementName(level, 'update-each'), level, {
    parents: 'several',
    with: `input AS (SELECT * FROM unnest(${arrays.join(', ')})
       WITH ORDINALITY AS u(${columns.join(', ')}, n)),
     target AS (SELECT i.n, ${given.map((m) => `i.to_${m.column}`).join(', ')}, ${alias}.*,
       ${nodeBytes[level](alias)} AS bytes ${lockedPaths(level, source, ids)}),
     ${updatedNodes(level, (member) => `t.to_${member.column}`)}`,
    changed: changedInPlace(parentColumn),
    select: `SELECT i.n, t.revision AS previous_revision, u.json IS NOT NULL AS changed,
       COALESCE(u.json, (${nodeJson(level, 't')})::text) AS json,
       CASE WHEN u.json IS NOT NULL THEN (SELECT tp.tree_bytes FROM touched_project tp)
         - COALESCE(sum((u.bytes - t.bytes)::bigint) OVER (ORDER BY i.n
             ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING), 0) END AS tree_bytes
     FROM input i LEFT JOIN target t ON t.n = i.n LEFT JOIN updated u ON u.id = t.id
     ORDER BY i.n`,
  });
}
