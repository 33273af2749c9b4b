import { nodeBytes } from './documents.sql';
import {
  type ChildLevel,
  levelAndDescendants,
  type StoredMember,
  TREE_LEVELS,
  type TreeLevel,
} from './tree-levels';

// The nodes a create makes beneath the node it creates (a project's blocks, a block's rows, …,
// a tree posted whole), in a fixed number of CTEs whatever their number: one array per level
// and member, unnested. Their counts and bytes are worked out bottom up from the values before
// anything is inserted, the way a node's JSON is its shell plus its children's (documents.sql),
// so each row is inserted once, complete: nothing inserted in a statement can be updated by it.
// The foreign keys are checked at commit, so the levels may be inserted in any order.

const capitalised = (word: string) => `${word[0].toUpperCase()}${word.slice(1)}`;

/** The array parameter of `level`'s nodes that holds `what` (`$rowIds`, `$contentDatas`). */
export const subtreeParam = (level: ChildLevel, what: string): string =>
  `${level}${capitalised(what)}s`;

/** The levels beneath `level`, top down. */
export const levelsBeneath = (level: TreeLevel): ChildLevel[] =>
  levelAndDescendants(level).slice(1) as ChildLevel[];

const childOf = (level: ChildLevel): ChildLevel | undefined => levelsBeneath(level)[0];

/** The sizes CTE of `level`'s new nodes: by parent, their count and their bytes in its list. */
export const sizesOf = (level: ChildLevel) => `new_${TREE_LEVELS[level].alias}_sizes`;

const holdsList = (level: ChildLevel) => level !== 'content';

function newNodes(level: ChildLevel): string {
  const { alias, members } = TREE_LEVELS[level];
  const child = childOf(level);
  const param = (what: string, type: string) => `$${subtreeParam(level, what)}::${type}[]`;
  const columns = ['id', 'parent_id', 'sort_key', ...members.map((m) => m.column)];
  const arrays = [
    param('id', 'uuid'),
    param('parent', 'uuid'),
    param('key', 'bigint'),
    ...members.map((m: StoredMember) => param(m.column, m.type)),
  ];
  const counted = holdsList(level)
    ? [
        `COALESCE(s.child_count, 0) AS child_count`,
        `COALESCE(s.children_bytes, 0)::bigint AS children_bytes`,
      ]
    : [];
  // A block's document shows its times: always 24 characters, whatever they are.
  const times = TREE_LEVELS[level].stamped ? ['now() AS created_at', 'now() AS updated_at'] : [];
  const sizes = child === undefined ? '' : ` LEFT JOIN ${sizesOf(child)} s ON s.parent_id = u.id`;
  return `new_${alias} AS (
    SELECT ${['u.*', ...counted, ...times].join(', ')}
    FROM unnest(${arrays.join(', ')}) AS u (${columns.join(', ')})${sizes})`;
}

function sizes(level: ChildLevel): string {
  const { alias } = TREE_LEVELS[level];
  return `${sizesOf(level)} AS (
    SELECT x.parent_id, count(*)::int AS child_count,
      (sum(${nodeBytes[level]('x')}) + 2 * (count(*) - 1))::bigint AS children_bytes
    FROM new_${alias} x GROUP BY x.parent_id)`;
}

function insertNew(
  level: ChildLevel,
  place: { project: string; revision: string; gate: string },
): string {
  const { table, alias, parentColumn, members } = TREE_LEVELS[level];
  const parent = parentColumn === 'project_id' ? [] : [parentColumn];
  const lists = holdsList(level) ? ['list_revision', 'child_count', 'children_bytes'] : [];
  const times = TREE_LEVELS[level].stamped ? ['created_at', 'updated_at'] : [];
  const columns = [
    'id',
    'project_id',
    ...parent,
    'sort_key',
    ...members.map((m) => m.column),
    'revision',
    ...lists,
    ...times,
  ];
  const values = columns.map((column) => {
    if (column === 'project_id') return place.project;
    if (column === parentColumn) return 'x.parent_id';
    if (column === 'revision' || column === 'list_revision') return place.revision;
    return `x.${column}`;
  });
  return `new_${alias}_inserted AS (
    INSERT INTO ${table} (${columns.join(', ')})
    SELECT ${values.join(', ')} FROM new_${alias} x
    WHERE EXISTS (SELECT 1 FROM ${place.gate})
    RETURNING 1)`;
}

/**
 * The CTEs that make the new nodes beneath a node of `level`: first, bottom up, each level's
 * values and their sizes (the node's own children's are `sizesOf(levelsBeneath(level)[0])`);
 * then their inserts, into project `project` at revision `revision`, once the CTE `gate` has a
 * row (the node they go beneath was made). None for a level without children.
 */
export function newSubtree(
  level: TreeLevel,
  place: { project: string; revision: string; gate: string },
): { values: string[]; inserts: string[] } {
  const beneath = levelsBeneath(level);
  return {
    values: [...beneath].reverse().flatMap((l) => [newNodes(l), sizes(l)]),
    inserts: beneath.map((l) => insertNew(l, place)),
  };
}
