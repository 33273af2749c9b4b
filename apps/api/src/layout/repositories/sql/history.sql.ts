import { sqlStatement, type SqlStatement } from '../../../database/sql-statement';
import {
  blockWith,
  columnWith,
  contentJson,
  iso,
  nodeBytes,
  projectBytes,
  projectJson,
  rowWith,
} from './documents.sql';
import { RECORD_REVISION } from './changes.sql';
import { isMember } from '../../../members/membership.sql';
import { WRITE_REVISION, WRITE_TIME } from './paths.sql';
import { type ChildLevel, TREE_LEVELS } from './tree-levels';

// The history of a project: a row of `revisions` per revision (RECORD_REVISION, changes.sql.ts),
// and each node's members and place over a range of revisions in `node_versions` (the triggers
// of the migration `history`). A project's state at revision n is the versions whose range holds n.

/** The versions of the project's nodes at revision `$revision` (alias `v`). */
export const STATE_AT = `node_versions v WHERE v.project_id = $projectId
  AND v.from_revision <= $revision::int
  AND (v.to_revision IS NULL OR v.to_revision > $revision::int)`;

/**
 * A revision's author `h.author_id` as an answer shows it: its id and name, or NULL once the
 * account is deleted (marked, or gone).
 */
export const AUTHOR_JSON = `(SELECT json_build_object('_id', a.id, 'username', a.username)
  FROM accounts a WHERE a.id = h.author_id AND a.deleted_at IS NULL)`;

/** Revisions older than the newest `$kept` of the project `p` are gone, pruned or not. */
export const KEPT_BY = (p: string, h: string) => `${h}.revision > ${p}.revision - $kept::int`;

/**
 * The project `p` (no row when the caller is no member of it) and `h`, its revision `$revision`
 * while that is kept (nulls when it is not).
 */
const KEPT_REVISION = `FROM projects p
  LEFT JOIN revisions h ON h.project_id = p.id AND h.revision = $revision::int
    AND ${KEPT_BY('p', 'h')}
WHERE p.id = $projectId AND ${isMember('p.id')}`;

/**
 * The project's document at revision `$revision`, built from its versions by the builders of
 * the current documents (documents.sql.ts), so that a past state reads exactly as the answer
 * it was: each list grouped by parent once, bottom up, not looked up per node. Each level is
 * materialised: the planner cannot estimate a CTE's rows, and on a guess of one it groups a
 * level again for every parent above it.
 */
export const PAST_DOCUMENT = `WITH state AS MATERIALIZED (SELECT v.* FROM ${STATE_AT}),
  contents_of AS MATERIALIZED (
    SELECT v.parent_id, json_agg(${contentJson('v')} ORDER BY v.sort_key) AS list
    FROM state v WHERE v.level = 'content' GROUP BY v.parent_id),
  columns_of AS MATERIALIZED (
    SELECT v.parent_id,
      json_agg(${columnWith('v', `COALESCE(l.list, '[]')`)} ORDER BY v.sort_key) AS list
    FROM state v LEFT JOIN contents_of l ON l.parent_id = v.id
    WHERE v.level = 'column' GROUP BY v.parent_id),
  rows_of AS MATERIALIZED (
    SELECT v.parent_id,
      json_agg(${rowWith('v', `COALESCE(l.list, '[]')`)} ORDER BY v.sort_key) AS list
    FROM state v LEFT JOIN columns_of l ON l.parent_id = v.id
    WHERE v.level = 'row' GROUP BY v.parent_id),
  blocks_of AS (
    SELECT json_agg(${blockWith('v', `COALESCE(l.list, '[]')`)} ORDER BY v.sort_key) AS list
    FROM state v LEFT JOIN rows_of l ON l.parent_id = v.id WHERE v.level = 'block')
SELECT h.revision,
  CASE WHEN h.revision IS NOT NULL THEN json_build_object('_id', p.id, 'title', h.title,
    'revision', h.revision, 'createdAt', ${iso('p.created_at')},
    'updatedAt', ${iso('h.created_at')},
    'blocks', COALESCE((SELECT b.list FROM blocks_of b), '[]'))::text END AS json
${KEPT_REVISION}`;

/**
 * Whether the caller is a member of the project (a row) and it keeps `$revision` (its number,
 * else null): all a past state's tag needs, as that state never changes while it is kept.
 */
export const PAST_REVISION = `SELECT h.revision
${KEPT_REVISION}`;

/**
 * A page of the project's kept revisions, newest first, older than `$before` (null: from the
 * newest): one range scan of the primary key, at most `$limit` + 1 entries (the extra one only
 * says that a next page exists).
 */
export const REVISION_PAGE = `SELECT page.json, page.more, page.first, page.last
FROM projects p CROSS JOIN LATERAL (
  SELECT COALESCE(json_agg(json_build_object('revision', h.revision,
      'createdAt', ${iso('h.created_at')}, 'operation', h.operation, 'path', h.path,
      'author', ${AUTHOR_JSON})
      ORDER BY h.revision DESC) FILTER (WHERE h.n <= $limit::int), '[]')::text AS json,
    count(*) > $limit::int AS more,
    max(h.revision) FILTER (WHERE h.n <= $limit::int) AS first,
    min(h.revision) FILTER (WHERE h.n <= $limit::int) AS last
  FROM (SELECT h.*, row_number() OVER (ORDER BY h.revision DESC) AS n
    FROM revisions h
    WHERE h.project_id = p.id AND ${KEPT_BY('p', 'h')}
      AND h.revision < COALESCE($before::int, 2147483647)
    ORDER BY h.revision DESC LIMIT $limit::int + 1) h) page
WHERE p.id = $projectId AND ${isMember('p.id')}`;

// A restore, behind the project's lock (which set WRITE_REVISION): the statements of one round,
// each doing nothing unless the lock found the caller's project and `$revision` is kept. They
// bring the tables to the state at `$revision` with as few changes as they can, so that the
// history records only what differs: nodes that were not there go (with their subtrees), nodes
// whose place differs step aside, every node of the state is inserted or, where it differs,
// updated, and the counts, bytes and tags are worked out again bottom up.

export interface RestoreParams {
  projectId: string;
  revision: number;
  kept: number;
}

const RESTORING = `${WRITE_REVISION} IS NOT NULL AND EXISTS (
  SELECT 1 FROM projects p JOIN revisions h ON h.project_id = p.id AND h.revision = $revision::int
  WHERE p.id = $projectId AND ${KEPT_BY('p', 'h')})`;

/** What a node of each level keeps besides its id, parent and place (json compared as text). */
const MEMBERS: Record<ChildLevel, { columns: string[]; compared: string[] }> = {
  block: {
    columns: ['description', 'style', 'created_at', 'updated_at'],
    compared: ['description', 'style::text', 'created_at', 'updated_at'],
  },
  row: { columns: ['description'], compared: ['description'] },
  column: { columns: ['size'], compared: ['size'] },
  content: {
    columns: ['type', 'style', 'data'],
    compared: ['type', 'style::text', 'data::text'],
  },
};

const CHILD_LEVELS: readonly ChildLevel[] = ['block', 'row', 'column', 'content'];

/** The nodes of `level` that were not there at `$revision` go, with their subtrees. */
function deleteGone(level: ChildLevel): SqlStatement<RestoreParams, never> {
  const { table } = TREE_LEVELS[level];
  return sqlStatement(
    `history.restore-delete-${table}`,
    `DELETE FROM ${table} x WHERE x.project_id = $projectId AND ${RESTORING}
       AND NOT EXISTS (SELECT 1 FROM ${STATE_AT} AND v.id = x.id)`,
  );
}

/** The parent column of a level's table, and the state's value it compares with. */
const parentOf = (level: ChildLevel) =>
  level === 'block' ? undefined : TREE_LEVELS[level].parentColumn;

/**
 * The project's nodes as they were before this restore (alias `w`): its state at the revision
 * before the write's, which the restore's own statements leave as it was.
 */
const STATE_BEFORE = `node_versions w WHERE w.project_id = $projectId
  AND w.from_revision < ${WRITE_REVISION}
  AND (w.to_revision IS NULL OR w.to_revision >= ${WRITE_REVISION})`;

/**
 * Where each of the state's nodes of `level` goes, beside where it was before the restore
 * (alias `k`: id, kept_key, replaced). Keys only order a list, so:
 * - `kept_key`: the node's key before, when its parent held then the very children of the state
 *   in the same order (the others, which go, aside): the list is as it was, and keeps its keys;
 * - `replaced`: the node changes place (a move, which takes a new tag): it comes from another
 *   parent or was not there, or both its key and its rank among the siblings that stay change.
 *   A node whose key differs but whose rank does not (its list renumbered, or a sibling gone)
 *   keeps its tag, and so does one whose key stays while others move around it: of a list put
 *   in another order, the nodes whose keys change are the ones that moved.
 */
function placement(level: ChildLevel): string {
  // The list is the same when every child was there before, at the same place: compared place
  // by place, not as arrays of the whole list on every row (quadratic in a list's length).
  return `(SELECT n.id, CASE WHEN n.same_list THEN n.key_before END AS kept_key,
      n.key_before IS NULL OR (NOT n.same_list AND n.sort_key <> n.key_before
        AND n.rank_then <> n.rank_before) AS replaced
    FROM (SELECT m.*, bool_and(m.key_before IS NOT NULL AND m.place_then = m.place_before)
        OVER (PARTITION BY m.parent_id) AS same_list
      FROM (SELECT s.id, s.parent_id, s.sort_key, b.sort_key AS key_before,
          row_number() OVER (PARTITION BY s.parent_id ORDER BY s.sort_key) AS place_then,
          row_number() OVER (PARTITION BY s.parent_id ORDER BY b.sort_key) AS place_before,
          row_number() OVER (PARTITION BY s.parent_id, b.id IS NULL ORDER BY s.sort_key) AS rank_then,
          row_number() OVER (PARTITION BY s.parent_id, b.id IS NULL ORDER BY b.sort_key) AS rank_before
        FROM (SELECT v.id, v.parent_id, v.sort_key FROM ${STATE_AT} AND v.level = '${level}') s
          LEFT JOIN (SELECT w.id, w.parent_id, w.sort_key FROM ${STATE_BEFORE}
              AND w.level = '${level}') b
            ON b.id = s.id AND b.parent_id IS NOT DISTINCT FROM s.parent_id) m) n)`;
}

/**
 * Nodes whose place differs step aside: each takes a key above every key its table holds in the
 * project and every key of its level in the state, so that while the nodes are put back in
 * place (one statement, each row checked against the unique keys as it is written), no key of
 * the state is held by a node that is still to move, and no node that steps aside meets
 * another. (Keys go to zero and below as nodes are moved to the top: a negated key could be a
 * sibling's.)
 */
const SHIFT = sqlStatement<RestoreParams, { shifted: string }>(
  'history.restore-shift',
  `WITH state AS (SELECT v.id, v.level, v.parent_id, v.sort_key FROM ${STATE_AT} AND ${RESTORING}),
  ${CHILD_LEVELS.map((level) => {
    const { table } = TREE_LEVELS[level];
    const parent = parentOf(level);
    const moved = parent
      ? `(v.sort_key <> x.sort_key OR v.parent_id <> x.${parent})`
      : 'v.sort_key <> x.sort_key';
    return `shifted_${table} AS (UPDATE ${table} x SET sort_key = aside.sort_key
      FROM (SELECT x.id, above.sort_key + row_number() OVER (ORDER BY x.id) AS sort_key
        FROM state v JOIN ${table} x ON x.id = v.id AND x.project_id = $projectId
          CROSS JOIN (SELECT GREATEST(
            (SELECT max(t.sort_key) FROM ${table} t WHERE t.project_id = $projectId),
            (SELECT max(s.sort_key) FROM state s WHERE s.level = '${level}')) AS sort_key) above
        WHERE v.level = '${level}' AND ${moved}
          AND v.id NOT IN (SELECT k.id FROM ${placement(level)} k WHERE k.kept_key IS NOT NULL)) aside
      WHERE x.id = aside.id AND x.project_id = $projectId RETURNING x.id)`;
  }).join(',\n  ')}
  SELECT (${CHILD_LEVELS.map((l) => `(SELECT count(*) FROM shifted_${TREE_LEVELS[l].table})`).join(' + ')})::text AS shifted`,
);

/**
 * Every node of `level` in the state: inserted when missing, updated where it differs (its key
 * kept in a list whose order is as it was: placement). Its tag moves when it is inserted (new,
 * or gone with an ancestor that went), changes place or its members differ; a new key alone
 * leaves it (0 is no revision: the tag stays, and only an update is ever given it).
 */
function upsert(level: ChildLevel): SqlStatement<RestoreParams, never> {
  const { table } = TREE_LEVELS[level];
  const parent = parentOf(level);
  const { columns, compared } = MEMBERS[level];
  const lists = level === 'content' ? [] : ['list_revision'];
  const placed = [...(parent ? [parent] : []), 'sort_key', ...columns];
  const inserted = ['id', 'project_id', ...placed, 'revision', ...lists];
  const values = [
    'v.id',
    '$projectId',
    ...(parent ? ['v.parent_id'] : []),
    'COALESCE(k.kept_key, v.sort_key)',
    ...columns.map((c) => `v.${c}`),
    `CASE WHEN k.replaced OR now.id IS NULL THEN ${WRITE_REVISION} ELSE 0 END`,
    ...lists.map(() => WRITE_REVISION),
  ];
  const differs = [...(parent ? [parent] : []), 'sort_key', ...compared];
  const tuple = (row: string, names: string[]) => `(${names.map((c) => `${row}.${c}`).join(', ')})`;
  const proposed = [
    ...(parent ? ['v.parent_id'] : []),
    'COALESCE(k.kept_key, v.sort_key)',
    ...compared.map((c) => `v.${c}`),
  ];
  // Only what is missing or differs is proposed: ON CONFLICT DO UPDATE locks every row it meets,
  // even those its WHERE leaves, and so would write to every page of the level's nodes.
  return sqlStatement(
    `history.restore-${table}`,
    `INSERT INTO ${table} AS x (${inserted.join(', ')})
     SELECT ${values.join(', ')}
     FROM (SELECT v.* FROM ${STATE_AT} AND v.level = '${level}' AND ${RESTORING}) v
       JOIN ${placement(level)} k ON k.id = v.id
       LEFT JOIN ${table} now ON now.project_id = $projectId AND now.id = v.id
     WHERE now.id IS NULL OR ${tuple('now', differs)} IS DISTINCT FROM (${proposed.join(', ')})
     ON CONFLICT (project_id, id) DO UPDATE SET ${placed.map((c) => `${c} = EXCLUDED.${c}`).join(', ')},
       revision = CASE WHEN EXCLUDED.revision <> 0
         OR ${tuple('x', compared)} IS DISTINCT FROM ${tuple('EXCLUDED', compared)}
         THEN ${WRITE_REVISION} ELSE x.revision END
     WHERE ${tuple('x', differs)} IS DISTINCT FROM ${tuple('EXCLUDED', differs)}`,
  );
}

const CHILD_OF = { column: 'content', row: 'column', block: 'row' } as const;

/** Of a parent `s` recounted: its list of children changed (a child's tag moved, or one went). */
const CHILDREN_CHANGED = `(s.child_changed OR s.n <> s.child_count OR s.bytes <> s.children_bytes)`;

/**
 * The counts and bytes of every node of `level` worked out again from its children (a node
 * without any joins one row of nulls, whose bytes are not a child's). Its tag moves on where it
 * changed: its own members or place (it took the write's revision) or its children (their
 * count or bytes, or a child that took the write's revision); the tag of its list of children
 * only with the children.
 */
function recount(level: 'column' | 'row' | 'block'): SqlStatement<RestoreParams, never> {
  const { table } = TREE_LEVELS[level];
  const child = CHILD_OF[level];
  const { table: childTable, parentColumn } = TREE_LEVELS[child];
  return sqlStatement(
    `history.restore-count-${table}`,
    `UPDATE ${table} x SET child_count = s.n, children_bytes = s.bytes,
       revision = ${WRITE_REVISION},
       list_revision = CASE WHEN ${CHILDREN_CHANGED} THEN ${WRITE_REVISION} ELSE x.list_revision END
     FROM (SELECT y.id, y.revision, y.child_count, y.children_bytes, count(z.id)::int AS n,
         (COALESCE(sum(${nodeBytes[child]('z')}) FILTER (WHERE z.id IS NOT NULL), 0)
           + 2 * GREATEST(count(z.id) - 1, 0))::bigint AS bytes,
         COALESCE(bool_or(z.revision = ${WRITE_REVISION}), false) AS child_changed
       FROM ${table} y LEFT JOIN ${childTable} z
         ON z.project_id = $projectId AND z.${parentColumn} = y.id
       WHERE y.project_id = $projectId GROUP BY y.project_id, y.id) s
     WHERE x.id = s.id AND x.project_id = $projectId AND ${RESTORING}
       AND (${CHILDREN_CHANGED} OR s.revision = ${WRITE_REVISION})`,
  );
}

/**
 * Last, the project: its title then, its counts, the write's revision (which the history
 * records as a restore; its list of blocks takes it only if the blocks changed). No row when
 * `$revision` is not kept.
 */
const RESTORE_PROJECT = sqlStatement<RestoreParams, { json: string; tree_bytes: string }>(
  'history.restore-project',
  `WITH h AS (SELECT h.title FROM revisions h
       WHERE h.project_id = $projectId AND h.revision = $revision::int),
     s AS (SELECT count(b.id)::int AS n,
         (COALESCE(sum(${nodeBytes.block('b')}), 0) + 2 * GREATEST(count(b.id) - 1, 0))::bigint AS bytes,
         COALESCE(bool_or(b.revision = ${WRITE_REVISION}), false) AS child_changed
       FROM blocks b WHERE b.project_id = $projectId),
     touched_project AS (
       UPDATE projects p SET title = h.title, child_count = s.n, children_bytes = s.bytes,
         revision = ${WRITE_REVISION}, updated_at = ${WRITE_TIME},
         list_revision = CASE WHEN s.child_changed OR s.n <> p.child_count
           OR s.bytes <> p.children_bytes THEN ${WRITE_REVISION} ELSE p.list_revision END
       FROM h, s WHERE p.id = $projectId AND ${RESTORING}
       RETURNING p.id, p.revision, p.title, p.updated_at, (${projectJson('p')})::text AS json,
         ${projectBytes('p')} AS tree_bytes),
     ${RECORD_REVISION.join(',\n     ')}
   SELECT u.json, u.tree_bytes::text AS tree_bytes FROM touched_project u`,
);

/**
 * A restore rewrites whole levels of a project, on generic plans made without knowing how many
 * nodes it holds: on a guess of a few, PostgreSQL nested loops that looked a node up once per
 * sibling, so the undo of one change in a block of 500 rows outran the database's deadline.
 * Hash and merge joins cost what the level holds whatever the guess. The restore's statements
 * are planned with nested loops off (a connection plans each once, on the restore's first run
 * there), and the setting is put back for whatever the transaction runs after them.
 */
const PLAN_WHOLE_LEVELS = sqlStatement(
  'history.restore-plan-whole-levels',
  `SELECT set_config('layout.enable_nestloop', current_setting('enable_nestloop'), true),
     set_config('enable_nestloop', 'off', true)`,
);
const PLAN_AS_BEFORE = sqlStatement(
  'history.restore-plan-as-before',
  `SELECT set_config('enable_nestloop', current_setting('layout.enable_nestloop'), true)`,
);

/**
 * A restore's statements, in the order they run: the writes between the planner's setting for
 * whole levels and its return to the transaction's own (see PLAN_WHOLE_LEVELS).
 */
export const RESTORE = {
  plan: { wholeLevels: PLAN_WHOLE_LEVELS, asBefore: PLAN_AS_BEFORE },
  deletes: CHILD_LEVELS.map(deleteGone),
  shift: SHIFT,
  upserts: CHILD_LEVELS.map(upsert),
  recounts: (['column', 'row', 'block'] as const).map(recount),
  project: RESTORE_PROJECT,
};

/** Whether `statement` is one of a restore's (which rewrites the tree whole: see queries.spec). */
export function isRestoreStatement(statement: { name: string }): boolean {
  return statement.name.startsWith('history.restore-');
}
