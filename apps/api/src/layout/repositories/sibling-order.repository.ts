import { Injectable } from '@nestjs/common';
import { sqlStatement } from '../../database/sql-statement';
import { type Round, type Step } from '../../database/unit-of-work';
import { treeWriteStatement } from './sql/changes.sql';
import { WRITE_REVISION } from './sql/paths.sql';
import { type ChildLevel, SORT_KEY_GAP, TREE_LEVELS } from './sql/tree-levels';

interface SlotParams {
  projectId: string;
  parentId: string;
  position: number;
  /** The node being moved, or null for a new one. */
  selfId: string | null;
}

interface SlotAfterParams {
  projectId: string;
  parentId: string;
  /** The node whose copy goes right after it. */
  afterId: string;
}

type Slot = { stays: boolean; sort_key: string | null };

const siblingsOf = (level: ChildLevel) => {
  const { table, parentColumn } = TREE_LEVELS[level];
  return `FROM ${table} x WHERE x.${parentColumn} = $parentId AND x.project_id = $projectId`;
};

// Where index `position` falls among the parent's children (the moving node left out): the key
// to give the node there, or `stays` when it is already there. A NULL key means the gap there
// is used up; the list is then renumbered once. Reads at most `position` index entries, never
// rows, and writes nothing.
const slot = (level: ChildLevel) => {
  const siblings = siblingsOf(level);
  const others = `${siblings} AND x.id IS DISTINCT FROM $selfId::uuid`;
  return sqlStatement<SlotParams, Slot>(
    `sibling-order.${level}-slot`,
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

// The key right after the node `$afterId` (where its copy goes): the middle of the gap to the
// next sibling, or a gap past it when it is the last; NULL when the gap is used up.
const slotAfter = (level: ChildLevel) => {
  const { table, parentColumn } = TREE_LEVELS[level];
  const siblings = siblingsOf(level);
  return sqlStatement<SlotAfterParams, Slot>(
    `sibling-order.${level}-slot-after`,
    `WITH s AS (
       SELECT o.sort_key AS own_key,
         (SELECT x.sort_key ${siblings} AND x.sort_key > o.sort_key ORDER BY x.sort_key LIMIT 1)
           AS next_key
       FROM ${table} o
       WHERE o.id = $afterId::uuid AND o.${parentColumn} = $parentId AND o.project_id = $projectId)
     SELECT false AS stays, (CASE
       WHEN next_key IS NULL THEN own_key + ${SORT_KEY_GAP}
       WHEN next_key - own_key >= 2 THEN own_key + (next_key - own_key) / 2
     END)::text AS sort_key
     FROM s`,
  );
};

// New keys, in order, above every current one: no key is ever held twice, even mid-statement.
// The siblings' order is unchanged, but their keys are: each is a change in place.
const renumber = (level: ChildLevel) => {
  const { table } = TREE_LEVELS[level];
  const siblings = siblingsOf(level);
  return treeWriteStatement<Pick<SlotParams, 'projectId' | 'parentId'>, never>(
    `sibling-order.${level}-renumber`,
    level,
    {
      parents: 'one',
      with: `renumbered AS (
         UPDATE ${table} t SET sort_key = m.base + s.n * ${SORT_KEY_GAP}
         FROM (SELECT x.id, row_number() OVER (ORDER BY x.sort_key) AS n ${siblings}) s,
              (SELECT COALESCE((SELECT x.sort_key ${siblings} ORDER BY x.sort_key DESC LIMIT 1), 0)
                AS base) m
         WHERE t.id = s.id AND t.project_id = $projectId
           AND ${WRITE_REVISION} IS NOT NULL
         RETURNING t.id)`,
      changed: `SELECT r.id, $parentId::uuid, $parentId::uuid, 0::bigint, 0::bigint FROM renumbered r`,
      select: `SELECT NULL`,
    },
  );
};

const STATEMENTS = Object.fromEntries(
  (['block', 'row', 'column', 'content'] as const).map((level) => [
    level,
    { slot: slot(level), slotAfter: slotAfter(level), renumber: renumber(level) },
  ]),
) as Record<
  ChildLevel,
  {
    slot: ReturnType<typeof slot>;
    slotAfter: ReturnType<typeof slotAfter>;
    renumber: ReturnType<typeof renumber>;
  }
>;

/** Where a node goes among the children of `parentId`: see SiblingOrderRepository.placed. */
export interface Placement {
  projectId: string;
  parentId: string;
  /** At this index (the node `selfId` left out of the count); undefined: no index asked for. */
  position?: number;
  selfId?: string | null;
  /** Without a position: right after this sibling. */
  afterId?: string;
}

/** Where a node goes among its new siblings. */
export type PlaceRequest = (Omit<SlotParams, 'position'> & { position: number }) | SlotAfterParams;

/**
 * Sibling order: each list is ordered by a sparse sort key per parent, so an append or a delete
 * never touches a sibling, and an insert or a move takes the middle of the gap at its place.
 */
@Injectable()
export class SiblingOrderRepository {
  /**
   * The sort key that puts a node at index `position` of its parent's list (past the end: at
   * the end), or right after the node `afterId`; undefined when the node (`selfId`) is there
   * already. When the gap there is used up, the list is renumbered first (a second round).
   */
  keyAt(round: Round, level: ChildLevel, request: PlaceRequest): Step<string | undefined> {
    const statements = STATEMENTS[level];
    const find = (r: Round) =>
      'afterId' in request ? r.row(statements.slotAfter, request) : r.row(statements.slot, request);
    const found = find(round);
    return round.next((next) => {
      const slotFound = found.get();
      if (!slotFound || slotFound.stays) return next.finish(() => undefined);
      if (slotFound.sort_key !== null) {
        const key = slotFound.sort_key;
        return next.finish(() => key);
      }
      next.rows(statements.renumber, { projectId: request.projectId, parentId: request.parentId });
      const again = find(next);
      return next.finish(() => {
        const renumbered = again.get();
        if (!renumbered || renumbered.stays) return undefined;
        if (renumbered.sort_key === null) {
          throw new Error(`${level}: no room in the list after renumbering`);
        }
        return renumbered.sort_key;
      });
    });
  }

  /**
   * Runs `then` with the sort key that `where` asks for: at once when it asks for no place
   * (null: the statement's default), in a round after the slot's when it does. Null too when
   * the node is there already.
   */
  placed<T>(
    round: Round,
    level: ChildLevel,
    where: Placement,
    then: (sortKey: string | null, round: Round) => Step<T>,
  ): Step<T> {
    const { projectId, parentId } = where;
    let request: PlaceRequest | undefined;
    if (where.position !== undefined) {
      request = { projectId, parentId, position: where.position, selfId: where.selfId ?? null };
    } else if (where.afterId !== undefined) {
      request = { projectId, parentId, afterId: where.afterId };
    }
    if (request === undefined) return then(null, round);
    return this.keyAt(round, level, request).andThen((key, next) => then(key ?? null, next));
  }
}
