import { sqlStatement, type SqlStatement } from '../../../database/sql-statement';
import { nodeBytes } from './documents.sql';
import { lockedPath } from './paths.sql';
import { touchAncestors } from './touch.sql';
import { type ChildLevel, parentOf, TREE_LEVELS } from './tree-levels';

/**
 * Deletes the node of `level` on the request's path with its subtree (the foreign keys cascade)
 * and takes it out of its ancestors' counters; answers the revision the node had, for
 * `If-Match`, or no row when there was no such node.
 */
export function deleteNodeStatement<P extends object>(
  level: ChildLevel,
): SqlStatement<P, { previous_revision: number }> {
  const { table, alias } = TREE_LEVELS[level];
  const parent = TREE_LEVELS[parentOf(level)];
  const parentWhere =
    parentOf(level) === 'project'
      ? `x.id = $projectId`
      : `x.id = $${parent.idParam} AND x.project_id = $projectId`;
  return sqlStatement(
    `${level}.delete`,
    `WITH target AS (SELECT ${alias}.id, ${alias}.revision, ${nodeBytes[level](alias)} AS bytes
       ${lockedPath(level)}),
     parent AS (SELECT x.child_count FROM ${parent.table} x WHERE ${parentWhere}),
     deleted AS (DELETE FROM ${table} y USING target t
       WHERE y.id = t.id AND y.project_id = $projectId RETURNING y.id),
     delta AS (
       SELECT -(t.bytes + CASE WHEN p.child_count > 1 THEN 2 ELSE 0 END) AS bytes, -1 AS count
       FROM target t, parent p, deleted),
     ${touchAncestors(parentOf(level))}
     SELECT t.revision AS previous_revision FROM target t`,
  );
}
