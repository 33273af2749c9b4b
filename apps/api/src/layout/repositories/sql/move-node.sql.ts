import { type SqlStatement } from '../../../database/sql-statement';
import { treeWriteStatement } from './changes.sql';
import { nodeBytes } from './documents.sql';
import { destination } from './destination.sql';
import { lockedPath } from './paths.sql';
import { type ChildLevel, parentOf, SORT_KEY_GAP, TREE_LEVELS } from './tree-levels';

/** Where a move puts the node (see moveNodeStatement). */
export interface MovePlacement {
  /** The parent it goes to; null: the one it is in. Not asked of a block (its parent is the project). */
  toParentId?: string | null;
  /** Its index among the parent's other children; null: the end. Past the end is the end. */
  position: number | null;
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
 * Moves the node of `level` on the request's path, with its subtree, to `$position` in a
 * parent's list (null: its end), in one statement: the place is found, the node's parent and
 * sort key updated (its id, revision and subtree untouched), and both parents' paths follow from
 * the `changed` rows. So a move, at a place or at the end, is one round behind the lock, which
 * the writes of the project behind it are pipelined after. A node already where the request
 * puts it is not written (no revision). The place is the middle of the gap there (keys are
 * sparse, see SiblingOrderRepository); when that gap is used up, the list's other children are
 * renumbered in the same statement, above every current key, and the node takes the middle of
 * its place among them. `extra` adds columns to the answer, over `target t` and `destination d`
 * (a column's row width).
 */
export function moveNodeStatement<P extends object, R extends MovedRow>(
  level: ChildLevel,
  json: (alias: string) => string,
  extra = '',
): SqlStatement<P, R> {
  const { table, alias, parentColumn, owner } = TREE_LEVELS[level];
  const others = `FROM ${table} x
    WHERE x.${parentColumn} = d.id AND x.project_id = $projectId AND x.id <> t.id`;
  const position = '$position::bigint';
  const atEnd = `(${position} IS NULL OR s.after_key IS NULL)`;
  return treeWriteStatement(`${owner}.move`, level, {
    parents: 'several',
    with: `target AS (
       SELECT ${alias}.id, ${alias}.${parentColumn} AS parent_id, ${alias}.revision,
         ${alias}.sort_key, ${nodeBytes[level](alias)} AS bytes, (${json(alias)})::text AS json
       ${lockedPath(level)}),
     destination AS (${destination(level)}),
     slot AS (
       SELECT t.id, d.id AS parent_id, t.sort_key AS own_key, d.id = t.parent_id AS home,
         CASE WHEN ${position} IS NOT NULL THEN (SELECT x.sort_key ${others}
           ORDER BY x.sort_key OFFSET GREATEST(${position} - 1, 0) LIMIT 1) END AS before_key,
         CASE WHEN ${position} IS NOT NULL THEN (SELECT x.sort_key ${others}
           ORDER BY x.sort_key OFFSET ${position} LIMIT 1) END AS after_key,
         (SELECT x.sort_key ${others} ORDER BY x.sort_key DESC LIMIT 1) AS last_key,
         GREATEST(t.sort_key, (SELECT x.sort_key ${others} ORDER BY x.sort_key DESC LIMIT 1))
           AS top_key
       FROM target t, destination d),
     placed AS (
       SELECT s.id, s.parent_id, s.top_key,
         s.home AND COALESCE(CASE
           WHEN ${atEnd} THEN s.own_key > COALESCE(s.last_key, s.own_key - 1)
           WHEN ${position} = 0 THEN s.own_key < s.after_key
           ELSE s.own_key > s.before_key AND s.own_key < s.after_key
         END, false) AS stays,
         CASE
           WHEN ${atEnd} THEN COALESCE(s.last_key, 0) + ${SORT_KEY_GAP}
           WHEN ${position} = 0 THEN s.after_key - ${SORT_KEY_GAP}
           WHEN s.after_key - s.before_key >= 2 THEN s.before_key + (s.after_key - s.before_key) / 2
         END AS sort_key
       FROM slot s),
     renumbered AS (
       UPDATE ${table} y SET sort_key = pl.top_key + o.n * ${SORT_KEY_GAP}
       FROM placed pl, (SELECT x.id, row_number() OVER (ORDER BY x.sort_key) AS n
         FROM ${table} x, target t, destination d
         WHERE x.${parentColumn} = d.id AND x.project_id = $projectId AND x.id <> t.id) o
       WHERE pl.sort_key IS NULL AND NOT pl.stays AND y.id = o.id AND y.project_id = $projectId
       RETURNING y.id, pl.parent_id),
     moved AS (
       UPDATE ${table} y SET ${parentColumn} = pl.parent_id,
         sort_key = COALESCE(pl.sort_key,
           pl.top_key + ${position} * ${SORT_KEY_GAP} + ${SORT_KEY_GAP / 2})
       FROM placed pl
       WHERE y.id = pl.id AND y.project_id = $projectId AND NOT pl.stays
       RETURNING y.id)`,
    changed: `SELECT t.id, t.parent_id, pl.parent_id, t.bytes, t.bytes
        FROM moved m JOIN target t ON t.id = m.id JOIN placed pl ON pl.id = m.id
      UNION ALL
      SELECT r.id, r.parent_id, r.parent_id, 0::bigint, 0::bigint FROM renumbered r`,
    select: `SELECT t.revision, t.json, d.id AS parent_id, d.row_id, d.block_id,
       m.id IS NOT NULL AS moved,
       (SELECT tp.child_count FROM touched_${parentOf(level)} tp WHERE tp.id = d.id) AS siblings,
       (SELECT tp.tree_bytes FROM touched_project tp) AS tree_bytes${extra === '' ? '' : `, ${extra}`}
     FROM target t LEFT JOIN destination d ON true LEFT JOIN moved m ON true`,
  });
}
