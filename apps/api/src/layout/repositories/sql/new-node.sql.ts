import { type ChildLevel, SORT_KEY_GAP, TREE_LEVELS } from './tree-levels';

// The fragments every insert of a node shares: where it goes, and what it adds to its parent.

/** A new node's sort key: the one `$sortKey` asks for, else after the last of its siblings. */
export function newNodeSortKey(level: ChildLevel, parentId: string): string {
  const { table, parentColumn } = TREE_LEVELS[level];
  const project = level === 'block' ? parentId : '$projectId';
  return `COALESCE($sortKey::bigint, COALESCE((SELECT x.sort_key FROM ${table} x
    WHERE x.${parentColumn} = ${parentId} AND x.project_id = ${project}
    ORDER BY x.sort_key DESC LIMIT 1), 0) + ${SORT_KEY_GAP})`;
}

/**
 * The `delta` of an insert (see touch.sql.ts): the new node's bytes (`bytes`, over the CTE
 * `inserted` as `i`), and a `", "` before it unless it is the first child of `parent`.
 */
export const insertedDelta = (bytes = 'i.bytes') => `delta AS (
  SELECT ${bytes} + CASE WHEN p.child_count > 0 THEN 2 ELSE 0 END AS bytes, 1 AS count
  FROM inserted i, parent p)`;
