import { isMember } from '../../../members/membership.sql';
import { TREE_LEVELS, type TreeLevel } from './tree-levels';

// `FROM … WHERE …` clauses that match a node only at the end of its exact path, each table
// confined to the project ($projectId), under the aliases of tree-levels.ts. A read also checks
// that the caller ($accountId) is a member of the project, whatever its role (every member
// reads); a write runs after locking the project, which checked the caller's role already.

const WITHIN: Record<Exclude<TreeLevel, 'project'>, { from: string; where: string }> = {
  block: {
    from: `blocks b`,
    where: `b.id = $blockId AND b.project_id = $projectId`,
  },
  row: {
    from: `rows r`,
    where: `r.id = $rowId AND r.block_id = $blockId AND r.project_id = $projectId`,
  },
  column: {
    from: `columns c JOIN rows r ON r.id = c.row_id AND r.project_id = $projectId`,
    where: `c.id = $columnId AND c.row_id = $rowId AND r.block_id = $blockId
      AND c.project_id = $projectId`,
  },
  content: {
    from: `contents ct
      JOIN columns c ON c.id = ct.column_id AND c.project_id = $projectId
      JOIN rows r ON r.id = c.row_id AND r.project_id = $projectId`,
    where: `ct.id = $contentId AND ct.column_id = $columnId AND c.row_id = $rowId
      AND r.block_id = $blockId AND ct.project_id = $projectId`,
  },
};

/** WITHIN[level] with each path parameter that `ids` names replaced by its expression. */
function boundPath(level: Exclude<TreeLevel, 'project'>, ids: Readonly<Record<string, string>>) {
  const bound = (text: string) =>
    text.replace(/\$(\w+)\b/g, (param, name: string) => ids[name] ?? param);
  return { from: bound(WITHIN[level].from), where: bound(WITHIN[level].where) };
}

/** The node of `level` on the request's path, if the caller is a member of the project. */
export function memberPath(level: TreeLevel): string {
  if (level === 'project') return `FROM projects p WHERE p.id = $projectId AND ${isMember('p.id')}`;
  const { from, where } = WITHIN[level];
  return `FROM ${from} WHERE ${where} AND ${isMember('$projectId')}`;
}

/**
 * Whether a node of `level` is at the end of the path whose ids are `ids`: SQL expressions, by
 * the name of the path parameter each stands for (`projectId`, `blockId`, …).
 */
export function nodeAtPath(
  level: Exclude<TreeLevel, 'project'>,
  ids: Readonly<Record<string, string>>,
): string {
  const { from, where } = boundPath(level, ids);
  return `EXISTS (SELECT 1 FROM ${from} WHERE ${where})`;
}

/**
 * The revision the transaction's write creates, which locking the project set (see
 * projects.repository.ts); NULL when the lock found no project the caller may write.
 */
export const WRITE_REVISION = `NULLIF(current_setting('layout.revision', true), '')::int`;

/**
 * When the transaction's write happened: the clock as locking the project read it. Unlike
 * `now()` (when the transaction began, which may be before an earlier writer let go of the
 * lock), it follows the project's order of writes, on any instance, so that revisions' times
 * never go back.
 */
export const WRITE_TIME = `NULLIF(current_setting('layout.write_time', true), '')::timestamptz`;

/** The account whose write it is (a revision's author), as locking the project set it. */
export const WRITE_AUTHOR = `NULLIF(current_setting('layout.author', true), '')::uuid`;

/** How many revisions the history keeps (HISTORY_REVISIONS), as locking the project set it. */
export const KEPT_REVISIONS = `NULLIF(current_setting('layout.history_revisions', true), '')::int`;

/**
 * The node of `level` on the request's path, inside a write that holds the project's lock:
 * nothing when the lock found no project of the caller's, so that a statement queued behind
 * the lock changes nothing in another account's project.
 */
export function lockedPath(level: TreeLevel): string {
  if (level === 'project') {
    return `FROM projects p WHERE p.id = $projectId AND ${WRITE_REVISION} IS NOT NULL`;
  }
  const { from, where } = WITHIN[level];
  return `FROM ${from} WHERE ${where} AND ${WRITE_REVISION} IS NOT NULL`;
}

/**
 * As lockedPath, for each row of `source` (a FROM item): the node of `level` at the end of the
 * path whose ids are `ids`, SQL expressions over `source` by the name of the path parameter each
 * stands for (`blockId`, …); the project stays `$projectId`.
 */
export function lockedPaths(
  level: Exclude<TreeLevel, 'project'>,
  source: string,
  ids: Readonly<Record<string, string>>,
): string {
  const { from, where } = boundPath(level, ids);
  return `FROM ${source} CROSS JOIN ${from} WHERE ${where} AND ${WRITE_REVISION} IS NOT NULL`;
}

/**
 * The node of `level` whose id is its path parameter, anywhere in the project, inside a write
 * that holds the project's lock: a node that the write itself made a moment before, whose new
 * path the request cannot name.
 */
export function lockedNode(level: Exclude<TreeLevel, 'project'>): string {
  const { table, alias, idParam } = TREE_LEVELS[level];
  return `FROM ${table} ${alias}
    WHERE ${alias}.id = $${idParam} AND ${alias}.project_id = $projectId
      AND ${WRITE_REVISION} IS NOT NULL`;
}
