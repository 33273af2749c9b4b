import { projectBytes } from './documents.sql';
import { WRITE_REVISION } from './paths.sql';
import { levelAndAncestors, type ParentLevel, TREE_LEVELS } from './tree-levels';

/**
 * The common tail of every write statement of the tree: CTEs that record a change below the
 * node of `parent` on the request's path. That node and each of its ancestors take the write's
 * revision (WRITE_REVISION) as revision and list revision, and add `delta.bytes` to their
 * children's bytes; `parent` also adds `delta.count` to its child count; the project moves
 * `updated_at`.
 *
 * The statement defines `delta` (one row: `bytes`, `count`) from what it changed; when it
 * changed nothing, `delta` is empty and nothing is touched. The CTEs are named
 * `touched_<level>`; `touched_project` returns the project's `tree_bytes` (its whole answer)
 * and `touched_<parent>` its `child_count`, for the service's limits.
 */
export function touchAncestors(parent: ParentLevel): string {
  return levelAndAncestors(parent)
    .map((level) => {
      const { table, alias, idParam } = TREE_LEVELS[level as ParentLevel];
      const sets = [
        `revision = ${WRITE_REVISION}`,
        `list_revision = ${WRITE_REVISION}`,
        `children_bytes = ${alias}.children_bytes + d.bytes`,
        ...(level === parent ? [`child_count = ${alias}.child_count + d.count`] : []),
        ...(level === 'project' ? [`updated_at = now()`] : []),
      ];
      const where =
        level === 'project'
          ? `${alias}.id = $projectId`
          : `${alias}.id = $${idParam} AND ${alias}.project_id = $projectId`;
      const returning =
        level === 'project'
          ? `${alias}.child_count, ${projectBytes(alias)} AS tree_bytes`
          : `${alias}.child_count`;
      return `touched_${level} AS (
        UPDATE ${table} ${alias} SET ${sets.join(', ')}
        FROM delta d
        WHERE ${where}
        RETURNING ${returning})`;
    })
    .join(',\n');
}
