import { type SqlStatement } from '../../../database/sql-statement';
import { treeWriteStatement } from './changes.sql';
import { nodeBytes } from './documents.sql';
import { destination } from './destination.sql';
import { lockedPath } from './paths.sql';
import { endOfList } from './new-node.sql';
import { type ChildLevel, parentOf, TREE_LEVELS } from './tree-levels';

/** Where a move puts the node (see moveNodeStatement). */
export interface MovePlacement {
  /** The parent it goes to; null: the one it is in. Not asked of a block (its parent is the project). */
  toParentId?: string | null;
  /** The sort key that puts it at the position asked for (SiblingOrderRepository.keyAt). */
  sortKey: string | null;
  /** No position asked for: the end of the list (where it stays if it is last already). */
  atEnd: boolean;
}

/** What a move reports, for its rules and its answer. */
export interface MovedRow {
  /** The node's revision (its tag), unchanged by the move, for `If-Match`. */
  revision: number;
  /** The node's document: a move changes its place, not its representation. */
  json: string;
  /** The parent it is in now, with that parent's ancestors; null when no such parent exists. */
  parent_id: string | null;
  row_id: string | null;
  block_id: string | null;
  /** Whether it moved (false: it was where the request puts it already). */
  moved: boolean;
  /** Children of the parent it is in now, after the move (null when it did not move). */
  siblings: number | null;
  /** Bytes of the project's whole answer after the move (null when it did not move). */
  tree_bytes: string | null;
}

/**
 * Moves the node of `level` on the request's path, with its subtree, to the end of a parent's
 * list or to `$sortKey` in it: one UPDATE of the node's parent and sort key, the node's id,
 * revision and subtree untouched, and both parents' paths following from the one `changed`
 * row. A node already where the request puts it is not written (no revision). `extra` adds
 * columns to the answer, over `target t` and `destination d` (a column's row width).
 */
export function moveNodeStatement<P extends object, R extends MovedRow>(
  level: ChildLevel,
  json: (alias: string) => string,
  extra = '',
): SqlStatement<P, R> {
  const { table, alias, parentColumn, owner } = TREE_LEVELS[level];
  const lastAlready = `NOT EXISTS (SELECT 1 FROM ${table} x
    WHERE x.${parentColumn} = t.parent_id AND x.project_id = $projectId AND x.sort_key > t.sort_key)`;
  return treeWriteStatement(`${owner}.move`, level, {
    parents: 'several',
    with: `target AS (
       SELECT ${alias}.id, ${alias}.${parentColumn} AS parent_id, ${alias}.revision,
         ${alias}.sort_key, ${nodeBytes[level](alias)} AS bytes, (${json(alias)})::text AS json
       ${lockedPath(level)}),
     destination AS (${destination(level)}),
     placed AS (
       SELECT t.id, d.id AS parent_id, CASE
         WHEN NOT $atEnd::boolean THEN COALESCE($sortKey::bigint, t.sort_key)
         WHEN d.id = t.parent_id AND ${lastAlready} THEN t.sort_key
         ELSE ${endOfList(level, 'd.id', 't.id')}
       END AS sort_key
       FROM target t, destination d),
     moved AS (
       UPDATE ${table} y SET ${parentColumn} = pl.parent_id, sort_key = pl.sort_key
       FROM placed pl, target t
       WHERE y.id = pl.id AND y.project_id = $projectId AND t.id = pl.id
         AND (pl.parent_id <> t.parent_id OR pl.sort_key <> t.sort_key)
       RETURNING y.id)`,
    changed: `SELECT t.id, t.parent_id, pl.parent_id, t.bytes, t.bytes
      FROM moved m JOIN target t ON t.id = m.id JOIN placed pl ON pl.id = m.id`,
    select: `SELECT t.revision, t.json, d.id AS parent_id, d.row_id, d.block_id,
       m.id IS NOT NULL AS moved,
       (SELECT tp.child_count FROM touched_${parentOf(level)} tp WHERE tp.id = d.id) AS siblings,
       (SELECT tp.tree_bytes FROM touched_project tp) AS tree_bytes${extra === '' ? '' : `, ${extra}`}
     FROM target t LEFT JOIN destination d ON true LEFT JOIN moved m ON true`,
  });
}
