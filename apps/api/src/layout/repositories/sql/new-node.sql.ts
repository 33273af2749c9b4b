import { type ChildLevel, SORT_KEY_GAP, TREE_LEVELS } from './tree-levels';

/** The sort key after the last child of `parentId` (of `level`'s list), `except` left out. */
export function endOfList(level: ChildLevel, parentId: string, except = 'NULL::uuid'): string {
  const { table, parentColumn } = TREE_LEVELS[level];
  return `COALESCE((SELECT x.sort_key FROM ${table} x
    WHERE x.${parentColumn} = ${parentId} AND x.project_id = $projectId
      AND x.id IS DISTINCT FROM ${except}
    ORDER BY x.sort_key DESC LIMIT 1), 0) + ${SORT_KEY_GAP}`;
}

/** A new node's sort key: the one `$sortKey` asks for, else after the last of its siblings. */
export function newNodeSortKey(level: ChildLevel, parentId: string): string {
  return `COALESCE($sortKey::bigint, ${endOfList(level, parentId)})`;
}
