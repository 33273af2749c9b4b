import { Injectable } from '@nestjs/common';
import { type SqlSession } from '../../database/sql-session';
import { WRITE_REVISION } from './sql/paths.sql';
import { sqlStatement } from '../../database/sql-statement';
import { type ChildLevel, SORT_KEY_GAP, TREE_LEVELS } from './sql/tree-levels';

interface SlotParams {
  projectId: string;
  parentId: string;
  position: number;
  /** The node being moved, or null for a new one. */
  selfId: string | null;
}

// Where index `position` falls among the parent's children (the moving node left out): the key
// to give the node there, or `stays` when it is already there. A NULL key means the gap there
// is used up; the list is then renumbered once. Reads at most `position` index entries, never
// rows, and writes nothing.
const slot = (level: ChildLevel) => {
  const { table, parentColumn } = TREE_LEVELS[level];
  const siblings = `FROM ${table} x WHERE x.${parentColumn} = $parentId AND x.project_id = $projectId`;
  const others = `${siblings} AND x.id IS DISTINCT FROM $selfId::uuid`;
  return sqlStatement<SlotParams, { stays: boolean; sort_key: string | null }>(
    `${level}.slot`,
    `WITH s AS (
       SELECT
         (SELECT x.sort_key ${others} ORDER BY x.sort_key
           OFFSET GREATEST($position::bigint - 1, 0) LIMIT 1) AS before_key,
         (SELECT x.sort_key ${others} ORDER BY x.sort_key OFFSET $position::bigint LIMIT 1) AS after_key,
         (SELECT x.sort_key ${siblings} AND x.id = $selfId::uuid) AS own_key,
         (SELECT x.sort_key ${others} ORDER BY x.sort_key DESC LIMIT 1) AS last_key)
     SELECT
       COALESCE(CASE
         WHEN after_key IS NULL THEN own_key > COALESCE(last_key, own_key - 1)
         WHEN $position::bigint = 0 THEN own_key < after_key
         ELSE own_key > before_key AND own_key < after_key
       END, false) AS stays,
       (CASE
         WHEN after_key IS NULL THEN COALESCE(last_key, 0) + ${SORT_KEY_GAP}
         WHEN $position::bigint = 0 THEN after_key - ${SORT_KEY_GAP}
         WHEN after_key - before_key >= 2 THEN before_key + (after_key - before_key) / 2
       END)::text AS sort_key
     FROM s`,
  );
};

// New keys, in order, above every current one: no key is ever held twice, even mid-statement.
const renumber = (level: ChildLevel) => {
  const { table, parentColumn } = TREE_LEVELS[level];
  const siblings = `FROM ${table} x WHERE x.${parentColumn} = $parentId AND x.project_id = $projectId`;
  return sqlStatement<Omit<SlotParams, 'position' | 'selfId'>, never>(
    `${level}.renumber`,
    `UPDATE ${table} t SET sort_key = m.base + s.n * ${SORT_KEY_GAP}
     FROM (SELECT x.id, row_number() OVER (ORDER BY x.sort_key) AS n ${siblings}) s,
          (SELECT COALESCE((SELECT x.sort_key ${siblings} ORDER BY x.sort_key DESC LIMIT 1), 0)
            AS base) m
     WHERE t.id = s.id AND t.project_id = $projectId AND ${WRITE_REVISION} IS NOT NULL`,
  );
};

const STATEMENTS = Object.fromEntries(
  (['block', 'row', 'column', 'content'] as const).map((level) => [
    level,
    { slot: slot(level), renumber: renumber(level) },
  ]),
) as Record<ChildLevel, { slot: ReturnType<typeof slot>; renumber: ReturnType<typeof renumber> }>;

/**
 * Sibling order: each list is ordered by a sparse sort key per parent, so an append or a delete
 * never touches a sibling, and an insert or a move takes the middle of the gap at its place.
 */
@Injectable()
export class SiblingOrderRepository {
  /**
   * The sort key that puts a node at index `position` of its parent's list (past the end: at
   * the end); undefined when no position is asked for or the node (`selfId`) is there already.
   */
  async keyAt(
    tx: SqlSession,
    level: ChildLevel,
    request: Omit<SlotParams, 'position'> & { position: number | undefined },
  ): Promise<string | undefined> {
    const { position } = request;
    if (position === undefined) return undefined;
    const params = { ...request, position };
    const { slot: find, renumber: spread } = STATEMENTS[level];
    let found = await tx.row(find, params);
    if (found && !found.stays && found.sort_key === null) {
      await tx.rows(spread, { projectId: params.projectId, parentId: params.parentId });
      found = await tx.row(find, params);
    }
    if (!found || found.stays) return undefined;
    if (found.sort_key === null) throw new Error(`${level}: no room in the list after renumbering`);
    return found.sort_key;
  }
}
