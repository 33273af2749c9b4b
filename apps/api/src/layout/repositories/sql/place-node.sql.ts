import { type SqlStatement } from '../../../database/sql-statement';
import { treeWriteStatement } from './changes.sql';
import { type Destination, destination } from './destination.sql';
import { nodeBytes, nodeJson } from './documents.sql';
import { lockedNode, lockedPath, WRITE_REVISION } from './paths.sql';
import { type ChildLevel, parentOf, SORT_KEY_GAP, statementName, TREE_LEVELS } from './tree-levels';

/**
 * Where a placement puts its node, the one way every write places a node among siblings (a
 * move, and a create, an update or a copy given a place):
 *
 * - `end`: after the last of the parent's other children;
 * - `position`: at index `$position` among them (past the end: the end);
 * - `after`: right after the sibling `$afterId` (where a copy goes beside its original).
 */
export type PlaceTo = 'end' | 'position' | 'after';

/**
 * How a placement finds its node: on the request's `path` (a move, an update), or by its `id`
 * anywhere in the project (a node the same write made, whose new path the request cannot name).
 */
export type PlaceFind = 'path' | 'id';

/** What a placement reports, for its rules and its answer. */
export interface PlacedRow extends Destination {
  /** The node's revision before the placement (its tag then), for `If-Match`. */
  revision: number;
  /** The node's document (found on its path only): a placement changes no representation. */
  json: string | null;
  /** Whether it moved (false: it was where the request puts it already). */
  moved: boolean;
  /** Children of the parent it is in now, after it moved (null when it did not). */
  siblings: number | null;
  /** Bytes of the project's whole answer after it moved (null when it did not). */
  tree_bytes: string | null;
}

/**
 * Places the node of `level` (found as `find` says) with its subtree at `to` in the list of its
 * parent, `$toParentId` or the one it is in (see destination), in one statement: the place is
 * found, the node's parent, sort key and revision updated (its id and subtree untouched), and
 * both parents' paths follow from the `changed` rows. A node already where the request puts it
 * is not written (no revision). The place is the middle of the gap there (keys are sparse); when
 * that gap is used up, the list's other children are renumbered in the same statement, above
 * every current key, and the node takes the middle of its place among them. `extra` adds columns
 * to the answer, over `target t` and `destination d` (a column's row width).
 *
 * Each combination is a statement of its own, not one with null parameters, so that each keeps
 * one generic plan: a statement whose null parameter folds half its branches away is planned
 * anew at every call (a custom plan), which costs more than running it.
 */
export function placeNodeStatement<P extends object, R extends PlacedRow>(
  level: ChildLevel,
  find: PlaceFind,
  to: PlaceTo,
  extra = '',
): SqlStatement<P, R> {
  const { table, alias, parentColumn } = TREE_LEVELS[level];
  const others = `FROM ${table} x
    WHERE x.${parentColumn} = d.id AND x.project_id = $projectId AND x.id <> t.id`;
  const lastKey = `(SELECT x.sort_key ${others} ORDER BY x.sort_key DESC LIMIT 1)`;
  const json = find === 'path' ? `(${nodeJson(level, alias)})::text` : 'NULL::text';
  const target = `target AS (
       SELECT ${alias}.id, ${alias}.${parentColumn} AS parent_id, ${alias}.revision,
         ${alias}.sort_key, ${nodeBytes[level](alias)} AS bytes, ${json} AS json
       ${find === 'path' ? lockedPath(level) : lockedNode(level)}),
     destination AS (${destination(level)})`;
  // The node by its key (placed has one row at most): joined instead, a generic plan scanned
  // the parent's whole list for it.
  const moved = (sortKey: string) => `moved AS (
       UPDATE ${table} y
       SET ${parentColumn} = pl.parent_id, sort_key = ${sortKey}, revision = ${WRITE_REVISION}
       FROM placed pl
       WHERE y.id = (SELECT p.id FROM placed p WHERE NOT p.stays) AND y.project_id = $projectId
       RETURNING y.id)`;
  const movedChange = `SELECT t.id, t.parent_id, pl.parent_id, t.bytes, t.bytes
        FROM moved m JOIN target t ON t.id = m.id JOIN placed pl ON pl.id = m.id`;
  const select = `SELECT t.revision, t.json, d.id AS parent_id, d.row_id, d.block_id,
       m.id IS NOT NULL AS moved,
       (SELECT tp.child_count FROM touched_${parentOf(level)} tp WHERE tp.id = d.id) AS siblings,
       (SELECT tp.tree_bytes FROM touched_project tp) AS tree_bytes${extra === '' ? '' : `, ${extra}`}
     FROM target t LEFT JOIN destination d ON true LEFT JOIN moved m ON true`;
  const name = statementName(level, PLACEMENTS[find][to]);
  if (to === 'end') {
    // The end always has room: a key past the last one.
    return treeWriteStatement(name, level, {
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
  // A renumbering is decided once, before anything is read (a one-time filter): most
  // placements renumber nothing, and joined to the list a generic plan numbered the list
  // again for each of its children.
  // The keys either side of the place, and the place's index among the other children (which
  // a renumbered list puts the node at). LIMIT and OFFSET take no column, so a place after a
  // sibling is found from the sibling's key.
  const slot =
    to === 'position'
      ? `(SELECT x.sort_key ${others}
           ORDER BY x.sort_key OFFSET GREATEST($position::bigint - 1, 0) LIMIT 1) AS before_key,
         (SELECT x.sort_key ${others} ORDER BY x.sort_key OFFSET $position::bigint LIMIT 1) AS after_key,
         $position::bigint = 0 AS at_start, $position::bigint AS place`
      : `a.sort_key AS before_key,
         (SELECT x.sort_key ${others} AND x.sort_key > a.sort_key ORDER BY x.sort_key LIMIT 1)
           AS after_key,
         false AS at_start,
         (SELECT count(*) ${others} AND x.sort_key <= a.sort_key) AS place`;
  const after =
    to === 'after'
      ? `, (SELECT x.sort_key FROM ${table} x WHERE x.id = $afterId::uuid AND x.project_id = $projectId) a`
      : '';
  return treeWriteStatement(name, level, {
    parents: 'several',
    with: `${target},
     slot AS (
       SELECT t.id, d.id AS parent_id, t.sort_key AS own_key, d.id = t.parent_id AS home,
         ${slot}, ${lastKey} AS last_key
       FROM target t, destination d${after}),
     placed AS (
       SELECT s.id, s.parent_id, s.place, GREATEST(s.own_key, s.last_key) AS top_key,
         s.home AND COALESCE(CASE
           WHEN s.after_key IS NULL THEN s.own_key > COALESCE(s.last_key, s.own_key - 1)
           WHEN s.at_start THEN s.own_key < s.after_key
           ELSE s.own_key > s.before_key AND s.own_key < s.after_key
         END, false) AS stays,
         CASE
           WHEN s.after_key IS NULL THEN COALESCE(s.last_key, 0) + ${SORT_KEY_GAP}
           WHEN s.at_start THEN s.after_key - ${SORT_KEY_GAP}
           WHEN s.after_key - s.before_key >= 2 THEN s.before_key + (s.after_key - s.before_key) / 2
         END AS sort_key
       FROM slot s),
     renumbered AS (
       UPDATE ${table} y SET sort_key = (SELECT pl.top_key FROM placed pl) + o.n * ${SORT_KEY_GAP}
       FROM (SELECT x.id, row_number() OVER (ORDER BY x.sort_key) AS n
         FROM ${table} x
         WHERE x.${parentColumn} = (SELECT d.id FROM destination d) AND x.project_id = $projectId
           AND x.id <> (SELECT t.id FROM target t)) o
       WHERE y.id = o.id AND y.project_id = $projectId
         AND (SELECT pl.sort_key IS NULL AND NOT pl.stays FROM placed pl)
       RETURNING y.id, (SELECT pl.parent_id FROM placed pl) AS parent_id),
     ${moved(`COALESCE(pl.sort_key, pl.top_key + pl.place * ${SORT_KEY_GAP} + ${SORT_KEY_GAP / 2})`)}`,
    changed: `${movedChange}
      UNION ALL
      SELECT r.id, r.parent_id, r.parent_id, 0::bigint, 0::bigint FROM renumbered r`,
    select,
  });
}

/** The intent each placement's statement is named after. */
const PLACEMENTS: Record<PlaceFind, Record<PlaceTo, string>> = {
  path: { end: 'move-to-end', position: 'move', after: 'move-after' },
  id: { end: 'place-at-end', position: 'place', after: 'place-after' },
};

/** The placements the writes use: a move (to the end, or a place), and a new node's place. */
export const PLACEMENTS_USED = [
  ['path', 'end'],
  ['path', 'position'],
  ['id', 'position'],
  ['id', 'after'],
] as const satisfies readonly (readonly [PlaceFind, PlaceTo])[];

/** One of the placements the writes use. */
export type PlaceKind =
  `${(typeof PLACEMENTS_USED)[number][0]}-${(typeof PLACEMENTS_USED)[number][1]}`;
