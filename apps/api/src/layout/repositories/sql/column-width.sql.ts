import { ROW_WIDTH } from '@layout/contracts';
import { type ChildLevel } from './tree-levels';

/** The summed size of the columns of row `row` other than `column`. */
export const othersWidth = (row: string, column: string) =>
  `(SELECT COALESCE(sum(o.size), 0)::int FROM columns o
    WHERE o.row_id = ${row} AND o.project_id = $projectId AND o.id IS DISTINCT FROM ${column})`;

/**
 * What each write of a level reports for the rule its parent keeps, beyond the count of its
 * children that every write reports: a row's width, for a column (`others`: the summed size of
 * the row's other columns, read after the project's lock, so current; `size`: the column's).
 * Each entry is a list of columns of the answer, over the aliases its statement defines.
 */
export const PARENT_RULE_COLUMNS: Record<
  ChildLevel,
  {
    /** An insert: over `parent p`, its parent. */
    readonly insert: string;
    /** An update: over `target t`, the node as it was. */
    readonly update: string;
    /** A placement: over `target t` and `destination d` (none when there is no such parent). */
    readonly place: string;
    /** A copy: a condition over `source s` and `destination d` that must hold, and its columns. */
    readonly copy: { readonly guard?: string; readonly extra?: string };
  }
> = {
  block: { insert: '', update: '', place: '', copy: {} },
  row: { insert: '', update: '', place: '', copy: {} },
  content: { insert: '', update: '', place: '', copy: {} },
  column: {
    insert: `${othersWidth('p.id', '$columnId::uuid')} AS others`,
    update: `${othersWidth('t.row_id', 't.id')} AS others`,
    place: `(SELECT c.size FROM columns c WHERE c.id = t.id AND c.project_id = $projectId) AS size,
   CASE WHEN d.id IS NULL THEN NULL ELSE ${othersWidth('d.id', 't.id')} END AS others`,
    copy: {
      guard: `${othersWidth('d.id', 'NULL::uuid')} + s.size <= ${ROW_WIDTH}`,
      extra: `s.size, CASE WHEN d.id IS NULL THEN NULL ELSE ${othersWidth('d.id', 'NULL::uuid')} END AS others`,
    },
  },
};
