import { type SqlStatement } from '../../../database/sql-statement';
import { treeWriteStatement } from './changes.sql';
import { nodeBytes } from './documents.sql';
import { lockedPath } from './paths.sql';
import { type ChildLevel, statementName, TREE_LEVELS } from './tree-levels';

/**
 * Deletes the node of `level` on the request's path with its subtree (the foreign keys cascade);
 * answers the revision the node had, for `If-Match`, or no row when there was no such node.
 */
export function deleteNodeStatement<P extends object>(
  level: ChildLevel,
): SqlStatement<P, { previous_revision: number }> {
  const { table, alias, parentColumn } = TREE_LEVELS[level];
  return treeWriteStatement(statementName(level, 'delete'), level, {
    parents: 'one',
    with: `target AS (
       SELECT ${alias}.id, ${alias}.${parentColumn} AS parent_id, ${alias}.revision,
         ${nodeBytes[level](alias)} AS bytes
       ${lockedPath(level)}),
     deleted AS (DELETE FROM ${table} y USING target t
       WHERE y.id = t.id AND y.project_id = $projectId RETURNING y.id)`,
    changed: `SELECT t.id, t.parent_id, NULL::uuid, t.bytes, 0::bigint FROM target t JOIN deleted d ON d.id = t.id`,
    select: `SELECT t.revision AS previous_revision FROM target t`,
  });
}
