import { sqlStatement, type SqlStatement } from '../../../database/sql-statement';
import { projectBytes } from './documents.sql';
import { KEPT_REVISIONS, WRITE_AUTHOR, WRITE_REVISION, WRITE_TIME } from './paths.sql';
import {
  levelAndAncestors,
  type ParentLevel,
  parentOf,
  TREE_LEVELS,
  type TreeLevel,
} from './tree-levels';

/**
 * The columns of the `changed` CTE that every write statement of the tree defines: one row per
 * node of the statement's level whose place or representation it changed.
 *
 * - `old_parent`: the parent it was under before (NULL for a node it created);
 * - `new_parent`: the parent it is under after (NULL for a node it removed, with its subtree);
 *   both the same for a change in place (its JSON, or its place among its siblings);
 * - `old_bytes`, `new_bytes`: its length in its parent's JSON list, before and after (the
 *   subtree's; 0 where there is no such node).
 *
 * A node moved between two parents is one row, with both: so a move, a copy, a delete and an
 * update all state their changes alike, and what follows from them (the ancestors' revisions,
 * child counts and byte totals, for one path or two) is worked out in one place, here.
 */
export const CHANGED_COLUMNS = '(id, old_parent, new_parent, old_bytes, new_bytes)';

/** What a statement of the tree is made of (see treeWriteStatement). */
export interface TreeWriteParts {
  /** CTEs that find and write the nodes (without the leading WITH), or '' for none. */
  readonly with: string;
  /** A SELECT of the `changed` rows (see CHANGED_COLUMNS): what the statement changed. */
  readonly changed: string;
  /**
   * Whether the changed nodes may sit under several parents (a move: two), or all under one
   * that none of them leaves (every other write). One parent makes a chain of single-row
   * updates by primary key; several, per level an update of the parents named, with their
   * sums. A statement of one parent that changes several fails (see ONE_PARENT).
   */
  readonly parents: Parents;
  /**
   * The statement's answer, over the CTEs of `with`, `changed` and those of followChanges:
   * `touched_<level>` for each ancestor level (`id`, `child_count`), `touched_project` with the
   * project's whole answer in `tree_bytes`.
   */
  readonly select: string;
}

/**
 * The CTE that records the write's revision in the project's history (a `revisions` row: what
 * the request did, the path it addressed and who sent it, as locking the project set them, with
 * the project's title and time after the write), and prunes the history past what is kept
 * (`layout_prune_history`, migrations `history_pruned_in_a_function` and
 * `history_pruned_by_window`: every 16th revision, what left the kept window since the 16th
 * before, and nothing on the others). It reads `touched_project`, the project's row as the
 * write left it (`id`, `revision`, `title`, `updated_at`): none when the write changed nothing,
 * so a refused or empty write records and prunes nothing. A second statement of one write meets
 * the row the first recorded.
 *
 * In the statement, with the rest of what follows from `changed`, rather than in a trigger on
 * `projects`: the revision is a fact of the write, which the statement knows. The pruning is a
 * function, not DELETEs of the statement, so that the fifteen writes of sixteen that prune
 * nothing do not set them up either. The nodes' versions stay with the triggers on the node
 * tables, which see every node a cascade deletes or a copy inserts (bench/results/changes.md
 * says what each costs).
 */
export const RECORD_REVISION = [
  `recorded_revision AS (
    INSERT INTO revisions AS h (project_id, revision, created_at, operation, path, title,
      author_id)
    SELECT t.id, t.revision, t.updated_at,
      COALESCE(NULLIF(current_setting('layout.operation', true), ''), 'project.update'),
      COALESCE(NULLIF(current_setting('layout.path', true), ''), '/projects/' || t.id), t.title,
      ${WRITE_AUTHOR}
    FROM touched_project t
      CROSS JOIN LATERAL layout_prune_history(t.id, t.revision, ${KEPT_REVISIONS}) pruned
    ON CONFLICT (project_id, revision) DO UPDATE
      SET created_at = EXCLUDED.created_at, title = EXCLUDED.title)`,
];

/**
 * A write statement of the tree: `parts.with` writes nodes of `level`, `parts.changed` states
 * what it changed, and the ancestors follow from that (followChanges), in the same statement.
 * Every statement that writes the tree is made here, so none can leave its ancestors behind.
 */
export function treeWriteStatement<P extends object, R>(
  name: string,
  level: TreeLevel,
  parts: TreeWriteParts,
): SqlStatement<P, R> {
  const ctes = [
    ...(parts.with.trim() === '' ? [] : [parts.with]),
    `changed ${CHANGED_COLUMNS} AS (${parts.changed})`,
    ...followChanges(level, parts.parents),
    ...RECORD_REVISION,
  ];
  const statement = sqlStatement<P, R>(name, `WITH ${ctes.join(',\n')}\n${parts.select}`);
  TREE_WRITES.add(statement.name);
  return statement;
}

const TREE_WRITES = new Set<string>();

/** Whether `statement` was made by treeWriteStatement (what the query files' test checks). */
export function isTreeWrite(statement: { name: string }): boolean {
  return TREE_WRITES.has(statement.name);
}

/**
 * CTEs that record the `changed` rows of nodes of `level` in their ancestors, bottom up:
 *
 * - each parent named in `changed` adds the nodes that came (+1) and left (−1) to its child
 *   count, and their bytes to its children's bytes, with the `", "` between list items that
 *   its count before and after implies (a node's JSON is its shell plus its children joined by
 *   `", "`, see documents.sql.ts);
 * - every ancestor above adds what its children's bytes changed by;
 * - all of them take the write's revision (WRITE_REVISION) as revision and list revision, so
 *   that the tags of both paths of a move change, and no other; the project moves
 *   `updated_at`.
 *
 * Each level's CTE is an UPDATE of that level's table for the ids the level below named, so
 * the same ancestor reached from two changes (a move between two columns of one row) is
 * updated once, with the sum. Nothing is touched when nothing changed (`changed` empty). A
 * node of level `project` has no parent: a statement that changes the project's own members
 * updates its row itself, in a CTE named `touched_project` (see RECORD_REVISION).
 */
export function followChanges(level: TreeLevel, parents: Parents): string[] {
  if (level === 'project') return [];
  const ancestors = levelAndAncestors(parentOf(level)) as ParentLevel[];
  return [
    parents === 'one' ? ONE_PARENT : SEVERAL_PARENTS,
    ...ancestors.map((ancestor, index) =>
      index === 0
        ? touchParent(ancestor, parents)
        : touchAncestor(ancestor, ancestors[index - 1], parents),
    ),
  ];
}

/** Under one parent, or under several (a move's two). */
export type Parents = 'one' | 'several';

/** Each parent's change: in its children's count, and their bytes. */
const SEVERAL_PARENTS = `parent_changes AS (
  SELECT c.parent_id, sum(c.count)::int AS count, sum(c.bytes)::bigint AS bytes FROM (
    SELECT ch.old_parent AS parent_id, -1 AS count, -ch.old_bytes AS bytes
    FROM changed ch WHERE ch.old_parent IS NOT NULL
    UNION ALL
    SELECT ch.new_parent, 1, ch.new_bytes FROM changed ch WHERE ch.new_parent IS NOT NULL) c
  GROUP BY c.parent_id)`;

/**
 * The one parent's change (no row when nothing changed). Rows under several parents, or one
 * that changes its parent, would count under one parent what belongs to others: the statement
 * fails instead (a uuid cast of a message, so that its text says why).
 */
const ONE_PARENT = `parent_changes AS (
  SELECT CASE
      WHEN count(DISTINCT COALESCE(ch.new_parent, ch.old_parent)) = 1
        AND bool_and(ch.old_parent IS NULL OR ch.new_parent IS NULL OR ch.old_parent = ch.new_parent)
      THEN (array_agg(COALESCE(ch.new_parent, ch.old_parent)))[1]
      ELSE ('a write of one parent changed ' || count(*) || ' nodes under several')::uuid
    END AS parent_id,
    (count(ch.new_parent) - count(ch.old_parent))::int AS count,
    (sum(ch.new_bytes) - sum(ch.old_bytes))::bigint AS bytes
  FROM changed ch HAVING count(*) > 0)`;

const SEPARATORS = (count: string) => `GREATEST(${count} - 1, 0)`;

/** The parents named in `changed`: children, bytes and the separators between them. */
function touchParent(level: ParentLevel, parents: Parents): string {
  const { table } = TREE_LEVELS[level];
  // In SET, x.child_count is the count before; in RETURNING, after.
  const separatorsDelta = (before: string, after: string) =>
    `2 * (${SEPARATORS(after)} - ${SEPARATORS(before)})`;
  const sets = [
    `revision = ${WRITE_REVISION}`,
    `list_revision = ${WRITE_REVISION}`,
    `child_count = x.child_count + d.count`,
    `children_bytes = x.children_bytes + d.bytes + ${separatorsDelta('x.child_count', 'x.child_count + d.count')}`,
    ...(level === 'project' ? [`updated_at = ${WRITE_TIME}`] : []),
  ];
  const delta = `(d.bytes + ${separatorsDelta('x.child_count - d.count', 'x.child_count')})::bigint`;
  return `touched_${level} AS (
    UPDATE ${table} x SET ${sets.join(', ')}
    FROM parent_changes d
    WHERE ${byIds('SELECT c.parent_id FROM parent_changes c', parents)} AND x.id = d.parent_id
      AND ${withinProject(level)}
    RETURNING x.id, x.child_count, ${returned(level, delta)})`;
}

/** An ancestor above the parents: the sum of what its children below changed by. */
function touchAncestor(level: ParentLevel, below: ParentLevel, parents: Parents): string {
  const { table } = TREE_LEVELS[level];
  const sets = [
    `revision = ${WRITE_REVISION}`,
    `list_revision = ${WRITE_REVISION}`,
    `children_bytes = x.children_bytes + d.bytes`,
    ...(level === 'project' ? [`updated_at = ${WRITE_TIME}`] : []),
  ];
  // One parent has one ancestor per level: its change as it is; several, their sum.
  const changes =
    parents === 'one'
      ? `touched_${below} d`
      : `(SELECT t.up, sum(t.bytes)::bigint AS bytes FROM touched_${below} t GROUP BY t.up) d`;
  return `touched_${level} AS (
    UPDATE ${table} x SET ${sets.join(', ')}
    FROM ${changes}
    WHERE ${byIds(`SELECT t.up FROM touched_${below} t`, parents)} AND x.id = d.up
      AND ${withinProject(level)}
    RETURNING x.id, x.child_count, ${returned(level, 'd.bytes')})`;
}

/**
 * The rows of the ids `ids` (a SELECT) by their primary key, whatever the planner makes of a
 * CTE's size: an ancestor is found by its id, not by scanning its project's rows.
 */
const byIds = (ids: string, parents: Parents) =>
  parents === 'one' ? `x.id = (${ids})` : `x.id = ANY (ARRAY(${ids}))`;

/** Every statement of the tree confines each table to the project (the shard key). */
const withinProject = (level: TreeLevel) =>
  level === 'project' ? `x.id = $projectId` : `x.project_id = $projectId`;

/** What a touched level passes up (its parent, its change in bytes), or the project's size. */
function returned(level: ParentLevel, delta: string): string {
  if (level === 'project') {
    return `x.revision, x.title, x.updated_at, ${projectBytes('x')} AS tree_bytes`;
  }
  return `x.${TREE_LEVELS[level].parentColumn} AS up, ${delta} AS bytes`;
}
