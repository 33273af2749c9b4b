import { isMember } from '../../../members/membership.sql';
import { sqlStatement, type SqlStatement } from '../../../database/sql-statement';
import { treeWriteStatement } from './changes.sql';
import { nodeBytes, nodeJson, projectBytes } from './documents.sql';
import { endOfList } from './new-node.sql';
import { lockedPath, WRITE_REVISION } from './paths.sql';
import { type Destination, destination } from './destination.sql';
import {
  type ChildLevel,
  levelAndDescendants,
  parentOf,
  statementName,
  TREE_LEVELS,
  type TreeLevel,
} from './tree-levels';

// A copy of a subtree in a fixed number of statements, whatever its size: one statement that
// inserts each level's copies, every value kept but the ids, the parent and the revision. The
// copy of a node has the id uuid_v7_copy(original, $copyId) (a migration's function: a UUIDv7
// whose other bits are a digest of both), so a child names its parent's copy without looking
// it up, and every table is read by index alone (the subtree's ids, level by level, as arrays):
// no join whose plan could go wrong on a project the statistics have not seen yet. The copies
// keep their sort keys beneath the copied node, and their counters: a node's JSON has the same
// length with another id (UUIDs are all 36 characters) and other timestamps (always 24), so
// the subtree's child counts and byte totals hold for the copy as they are.

/** What each level's copy takes from its original, besides ids, parent, place and revision. */
const COPIED_VALUES: Record<TreeLevel, readonly string[]> = {
  project: ['child_count', 'children_bytes'],
  block: ['description', 'style', 'child_count', 'children_bytes'],
  row: ['description', 'child_count', 'children_bytes'],
  column: ['size', 'child_count', 'children_bytes'],
  content: ['type', 'style', 'data'],
};

/** The levels whose rows carry a list revision (those that hold a list). */
const hasList = (level: TreeLevel) => level !== 'content';

/** The id of the copy of the node whose id is `original` (see the file's head). */
const copyOf = (original: string) => `uuid_v7_copy(${original}, $copyId::uuid)`;

/**
 * The ids of the subtree beneath the copied node, one array per level (`ids_<alias>`), each
 * found from the level above by the list index (project, parent, sort key).
 */
function idsBeneath(level: ChildLevel): string[] {
  return levelAndDescendants(level)
    .slice(1)
    .map((below) => {
      const { table, alias, parentColumn } = TREE_LEVELS[below];
      const above = parentOf(below as ChildLevel);
      const parents =
        above === level
          ? 'ARRAY(SELECT s.id FROM source s)'
          : `(SELECT i.ids FROM ids_${TREE_LEVELS[above].alias} i)::uuid[]`;
      return `ids_${alias} AS MATERIALIZED (
        SELECT COALESCE(array_agg(x.id), '{}'::uuid[]) AS ids FROM ${table} x
        WHERE x.project_id = $projectId AND x.${parentColumn} = ANY (${parents}))`;
    });
}

/** How many nodes the copy makes: the copied node and everything beneath it. */
function nodesCounted(level: ChildLevel): string {
  return [
    '1',
    ...levelAndDescendants(level)
      .slice(1)
      .map((l) => `(SELECT cardinality(i.ids) FROM ids_${TREE_LEVELS[l].alias} i)`),
  ].join(' + ');
}

/**
 * Inserts the copies of the nodes of `level` that `where` picks (from `x`, the originals),
 * into the project `project` at revision `revision`: each with its copy id, its parent's copy
 * (`parent`, an expression over `x`), its own sort key or `sortKey`, and its values; only when
 * the CTE `gate` has a row (the copy is allowed, or its project was made).
 */
function insertCopies(
  level: ChildLevel,
  options: {
    id: string;
    parent: string;
    where: string;
    sortKey?: string;
    project: string;
    revision: string;
    gate: string;
  },
): string {
  const { table, alias, parentColumn } = TREE_LEVELS[level];
  const values = COPIED_VALUES[level];
  // A block's parent column is its project's.
  const own = parentColumn === 'project_id' ? [] : [parentColumn];
  const ownValues = parentColumn === 'project_id' ? [] : [options.parent];
  const revisions = hasList(level) ? ['revision', 'list_revision'] : ['revision'];
  return `copy_${alias} AS (
    INSERT INTO ${table} (id, project_id, ${[...own, 'sort_key', ...values, ...revisions].join(', ')})
    SELECT ${options.id}, ${options.project}, ${[...ownValues, options.sortKey ?? 'x.sort_key', ...values.map((v) => `x.${v}`), ...revisions.map(() => options.revision)].join(', ')}
    FROM ${table} x CROSS JOIN (SELECT 1 FROM ${options.gate} LIMIT 1) gate
    WHERE x.project_id = $projectId AND ${options.where}
    RETURNING ${table}.id)`;
}

/** What a copy within a project reports, for its rules and its answer. */
export interface CopiedRow extends Destination {
  /** The original's revision (its tag), for `If-Match`. */
  revision: number;
  /** Nodes the copy makes (the copied one and all beneath it). */
  nodes: string | null;
  /** The project's whole answer before the copy, and with it. */
  tree_before: string | null;
  tree_after: string | null;
  /** Children of the parent after the copy (null when nothing was copied). */
  siblings: number | null;
  /** Whether the copy was made: not when it would break a limit that `allowed` checks. */
  copied: boolean;
}

/**
 * Copies the node of `level` on the request's path, with its subtree, into `$toParentId` (or
 * the same parent when null) at the end of its list, with `$copyId` as the new node's id (a
 * placement in the same round puts it elsewhere). It copies nothing when the copy would make more than `$maxNodes` nodes or take the
 * project's answer past `$maxTreeBytes` (nor when `guard`, over `fits f` and `source s`,
 * fails), and reports the numbers for the service's rules. `extra` adds columns to the
 * answer, over `source s` and `destination d`.
 */
export function copyNodeStatement<P extends object, R extends CopiedRow>(
  level: ChildLevel,
  options: { guard?: string; extra?: string } = {},
): SqlStatement<P, R> {
  const { alias, parentColumn } = TREE_LEVELS[level];
  const parent = parentOf(level);
  return treeWriteStatement(statementName(level, 'copy'), level, {
    parents: 'one',
    with: [
      `source AS (
         SELECT ${alias}.id, ${alias}.revision, ${alias}.${parentColumn} AS parent_id,
           ${nodeBytes[level](alias)} AS bytes${level === 'column' ? `, ${alias}.size` : ''}
         ${lockedPath(level)})`,
      `destination AS (${destination(level)})`,
      ...idsBeneath(level),
      `fits AS (
         SELECT (${nodesCounted(level)})::bigint AS nodes,
           pr.bytes AS tree_before,
           pr.bytes + s.bytes + CASE WHEN d.child_count > 0 THEN 2 ELSE 0 END AS tree_after
         FROM source s, destination d,
           (SELECT ${projectBytes('p')} AS bytes FROM projects p WHERE p.id = $projectId) pr)`,
      `allowed AS (
         SELECT 1 FROM fits f, source s, destination d
         WHERE f.nodes <= $maxNodes::bigint AND f.tree_after <= $maxTreeBytes::bigint
           ${options.guard ? `AND ${options.guard}` : ''})`,
      insertCopies(level, {
        id: '$copyId::uuid',
        parent: '(SELECT d.id FROM destination d)',
        where: 'x.id = (SELECT s.id FROM source s)',
        sortKey: endOfList(level, '(SELECT d.id FROM destination d)'),
        project: '$projectId',
        revision: WRITE_REVISION,
        gate: 'allowed',
      }),
      ...levelAndDescendants(level)
        .slice(1)
        .map((below) => {
          const { alias: a, parentColumn: up } = TREE_LEVELS[below];
          return insertCopies(below as ChildLevel, {
            id: copyOf('x.id'),
            // Beneath the copied node, whose copy is $copyId, each parent's copy by its id.
            parent: `CASE WHEN x.${up} = (SELECT s.id FROM source s) THEN $copyId::uuid ELSE ${copyOf(`x.${up}`)} END`,
            where: `x.id = ANY ((SELECT i.ids FROM ids_${a} i)::uuid[])`,
            project: '$projectId',
            revision: WRITE_REVISION,
            gate: 'allowed',
          });
        }),
    ].join(',\n'),
    changed: `SELECT c.id, NULL::uuid, d.id, 0::bigint, s.bytes
      FROM copy_${alias} c, source s, destination d`,
    select: `SELECT s.revision, d.id AS parent_id, d.row_id, d.block_id,
       f.nodes::text AS nodes, f.tree_before::text AS tree_before, f.tree_after::text AS tree_after,
       (SELECT tp.child_count FROM touched_${parent} tp WHERE tp.id = d.id) AS siblings,
       EXISTS (SELECT 1 FROM copy_${alias}) AS copied${options.extra ? `, ${options.extra}` : ''}
     FROM source s LEFT JOIN destination d ON true LEFT JOIN fits f ON true`,
  });
}

/** What a project's copy reports. */
export interface CopiedProjectRow {
  /** The original's revision (its tag), for `If-Match`. */
  revision: number;
  /** Nodes the copy makes: the project and everything in it. */
  nodes: string;
  /** The account's projects with the copy (null when nothing was copied). */
  projects: number | null;
  /** Bytes of the copy's whole answer (null when nothing was copied). */
  tree_bytes: string | null;
  copied: boolean;
}

/**
 * Copies the caller's project `$projectId` with its whole tree into a new project of theirs,
 * `$copyId`, at revision 1, titled `$title`, or the original's title (cut to fit `$titleMax`)
 * with `$titleSuffix`. Nothing is copied past `$maxNodes` nodes, nor for an account deleted
 * since its token was checked. It counts the copy among the account's projects (the account's
 * row lock serialises its creates, so the count is exact). It writes one project only: the
 * original is read, in the statement's snapshot.
 */
export const COPY_PROJECT = sqlStatement<
  {
    accountId: string;
    projectId: string;
    copyId: string;
    title: string | null;
    titleMax: number;
    titleSuffix: string;
    maxNodes: number;
  },
  CopiedProjectRow
>(
  'projects.copy',
  `WITH ${[
    // The copy's first revision is recorded as a duplicate of the project the request named
    // (see the migration `history`), as every revision names the node its request addressed.
    `source AS (SELECT p.id, p.title, p.revision,
         set_config('layout.operation', 'project.duplicate', true) AS operation,
         set_config('layout.path', '/projects/' || p.id, true) AS path
       FROM projects p WHERE p.id = $projectId AND ${isMember('p.id')})`,
    `fits AS (
       SELECT (1 + ${levelAndDescendants('block')
         .map(
           (l) =>
             `(SELECT count(*) FROM ${TREE_LEVELS[l].table} x WHERE x.project_id = $projectId)`,
         )
         .join(' + ')})::bigint AS nodes)`,
    `allowed AS (SELECT 1 FROM fits f, source s WHERE f.nodes <= $maxNodes::bigint)`,
    `counted AS (
       UPDATE accounts a SET project_count = a.project_count + 1 FROM allowed
       WHERE a.id = $accountId AND a.deleted_at IS NULL RETURNING a.project_count)`,
    `copy_p AS (
       INSERT INTO projects AS n (id, owner_id, title, child_count, children_bytes)
       SELECT $copyId, $accountId,
         COALESCE($title::text,
           left(x.title, $titleMax::int - char_length($titleSuffix::text)) || $titleSuffix::text),
         x.child_count, x.children_bytes
       FROM projects x CROSS JOIN counted WHERE x.id = (SELECT s.id FROM source s)
       RETURNING n.id, ${projectBytes('n')} AS tree_bytes)`,
    // Everything in the project, each beneath its parent's copy: only once the copy is made
    // (not when its account is gone meanwhile).
    ...levelAndDescendants('block').map((l) => {
      const { parentColumn: up } = TREE_LEVELS[l];
      return insertCopies(l as ChildLevel, {
        id: copyOf('x.id'),
        parent: copyOf(`x.${up}`),
        where: 'true',
        project: '$copyId::uuid',
        revision: '1',
        gate: 'copy_p',
      });
    }),
  ].join(',\n')}
  SELECT s.revision, f.nodes::text AS nodes, c.project_count AS projects,
    cp.tree_bytes::text AS tree_bytes, cp.id IS NOT NULL AS copied
  FROM source s CROSS JOIN fits f LEFT JOIN counted c ON true LEFT JOIN copy_p cp ON true`,
);

/** The document of a copy, by its id: sent right behind the copy, in the same round. */
export function copyDocumentStatement(
  level: TreeLevel,
): SqlStatement<{ projectId: string; copyId: string }, { json: string }> {
  const { table, alias } = TREE_LEVELS[level];
  const within = level === 'project' ? '' : ` AND ${alias}.project_id = $projectId`;
  return sqlStatement(
    statementName(level, 'copy-document'),
    `SELECT (${nodeJson(level, alias)})::text AS json FROM ${table} ${alias}
     WHERE ${alias}.id = $copyId${within}`,
  );
}
