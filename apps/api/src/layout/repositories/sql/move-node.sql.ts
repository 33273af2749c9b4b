import { type SqlStatement } from '../../../database/sql-statement';
import { treeWriteStatement } from './changes.sql';
import { nodeBytes } from './documents.sql';
import { destination } from './destination.sql';
import { lockedPath, WRITE_REVISION } from './paths.sql';
import { type ChildLevel, parentOf, SORT_KEY_GAP, TREE_LEVELS } from './tree-levels';

/** Where a move puts the node (see moveNodeStatements). */
export interface MovePlacement {
  /** The parent it goes to; null: the one it is in. Not asked of a block (its parent is the project). */
  toParentId?: string | null;
  /** Its index among the parent's other children; null: the end. Past the end is the end. */
  position: number | null;
}

/** What a move reports, for its rules and its answer. */
export interface MovedRow {
  /** The node's revision before the move (its tag then), for `If-Match`. */
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
 * The two statements of a move of `level`: to the end of a list, and to a position in it. They
 * are two, not one with a null position, so that each keeps one generic plan: a statement whose
 * null parameter folds half its branches away is planned anew at every call (a custom plan),
 * which costs more than running it.
 */
export interface MoveStatements<P extends MovePlacement, R extends MovedRow> {
  readonly toEnd: SqlStatement<P, R>;
  readonly toPosition: SqlStatement<P, R>;
  /** The statement for `placement`. */
  for(placement: MovePlacement): SqlStatement<P, R>;
}

/**
 * Moves the node of `level` on the request's path, with its subtree, to `$position` in a
 * parent's list (the end: `toEnd`), in one statement: the place is found, the node's parent,
 * sort key and revision updated (its id and subtree untouched), and both parents' paths follow from
 * the `changed` rows. So a move, at a place or at the end, is one round behind the lock, which
 * the writes of the project behind it are pipelined after. A node already where the request
 * puts it is not written (no revision). The place is the middle of the gap there (keys are
 * sparse, see SiblingOrderRepository); when that gap is used up, the list's other children are
 * renumbered in the same statement, above every current key, and the node takes the middle of
 * its place among them. `extra` adds columns to the answer, over `target t` and `destination d`
 * (a column's row width).
 */
export function moveNodeStatements<P extends MovePlacement, R extends MovedRow>(
  level: ChildLevel,
  json: (alias: string) => string,
  extra = '',
): MoveStatements<P, R> {
  const toEnd = moveStatement<P, R>(level, json, extra, 'end');
  const toPosition = moveStatement<P, R>(level, json, extra, 'position');
  return {
    toEnd,
    toPosition,
    for: (placement) => (placement.position === null ? toEnd : toPosition),
  };
}

function moveStatement<P extends object, R extends MovedRow>(
  level: ChildLevel,
  json: (alias: string) => string,
  extra: string,
  to: 'end' | 'position',
): SqlStatement<P, R> {
  const { table, alias, parentColumn, owner } = TREE_LEVELS[level];
  const others = `FROM ${table} x
    WHERE x.${parentColumn} = d.id AND x.project_id = $projectId AND x.id <> t.id`;
  const lastKey = `(SELECT x.sort_key ${others} ORDER BY x.sort_key DESC LIMIT 1)`;
  const target = `target AS (
       SELECT ${alias}.id, ${alias}.${parentColumn} AS parent_id, ${alias}.revision,
         ${alias}.sort_key, ${nodeBytes[level](alias)} AS bytes, (${json(alias)})::text AS json
       ${lockedPath(level)}),
     destination AS (${destination(level)})`;
  const moved = (sortKey: string) => `moved AS (
       UPDATE ${table} y
       SET ${parentColumn} = pl.parent_id, sort_key = ${sortKey}, revision = ${WRITE_REVISION}
       FROM placed pl
       WHERE y.id = pl.id AND y.project_id = $projectId AND NOT pl.stays
       RETURNING y.id)`;
  const movedChange = `SELECT t.id, t.parent_id, pl.parent_id, t.bytes, t.bytes
        FROM moved m JOIN target t ON t.id = m.id JOIN placed pl ON pl.id = m.id`;
  const select = `SELECT t.revision, t.json, d.id AS parent_id, d.row_id, d.block_id,
       m.id IS NOT NULL AS moved,
       (SELECT tp.child_count FROM touched_${parentOf(level)} tp WHERE tp.id = d.id) AS siblings,
       (SELECT tp.tree_bytes FROM touched_project tp) AS tree_bytes${extra === '' ? '' : `, ${extra}`}
     FROM target t LEFT JOIN destination d ON true LEFT JOIN moved m ON true`;
  if (to === 'end') {
    // The end always has room: a key past the last one.
    return treeWriteStatement(`${owner}.move-to-end`, level, {
      parents: 'several',
      with: `${target},
     placed AS (
       SELECT t.id, d.id AS parent_id,
         d.id = t.parent_id AND t.sort_key > COALESCE(s.last_key, t.sort_key - 1) AS stays,
         COALESCE(s.last_key, 0) + ${SORT_KEY_GAP} AS sort_key
       FROM target t, destination d, LATERAL (SELECT ${lastKey} AS last_key) s),
     ${moved('pl.sort_key')}`,
      changed: movedChange,
      select,
    });
  }
  const position = '$position::bigint';
  return treeWriteStatement(`${owner}.move`, level, {
    parents: 'several',
    with: `${target},
     slot AS (
       SELECT t.id, d.id AS parent_id, t.sort_key AS own_key, d.id = t.parent_id AS home,
         (SELECT x.sort_key ${others}
           ORDER BY x.sort_key OFFSET GREATEST(${position} - 1, 0) LIMIT 1) AS before_key,
         (SELECT x.sort_key ${others} ORDER BY x.sort_key OFFSET ${position} LIMIT 1) AS after_key,
         ${lastKey} AS last_key
       FROM target t, destination d),
     placed AS (
       SELECT s.id, s.parent_id, GREATEST(s.own_key, s.last_key) AS top_key,
         s.home AND COALESCE(CASE
           WHEN s.after_key IS NULL THEN s.own_key > COALESCE(s.last_key, s.own_key - 1)
           WHEN ${position} = 0 THEN s.own_key < s.after_key
           ELSE s.own_key > s.before_key AND s.own_key < s.after_key
         END, false) AS stays,
         CASE
           WHEN s.after_key IS NULL THEN COALESCE(s.last_key, 0) + ${SORT_KEY_GAP}
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
     ${moved(`COALESCE(pl.sort_key, pl.top_key + ${position} * ${SORT_KEY_GAP} + ${SORT_KEY_GAP / 2})`)}`,
    changed: `${movedChange}
      UNION ALL
      SELECT r.id, r.parent_id, r.parent_id, 0::bigint, 0::bigint FROM renumbered r`,
    select,
  });
}
