import { type NodeValues } from './node-values';
import { levelsBeneath, subtreeParam } from './sql/new-subtree.sql';
import { type ChildLevel, TREE_LEVELS, type TreeLevel } from './sql/tree-levels';

/** The new nodes of one level beneath a node that a create makes, in the body's order. */
export interface NewNodes<L extends ChildLevel> {
  ids: string[];
  /** Each one's parent: the created node, or a new node of the level above. */
  parents: string[];
  /** Each one's sort key among its siblings. */
  keys: string[];
  values: NodeValues[L][];
}

/** Everything a create makes beneath its node, level by level (see newSubtree). */
export interface NewSubtree {
  /** How many nodes the create makes, its own included. */
  nodes: number;
  levels: { [L in ChildLevel]?: NewNodes<L> };
}

/** A value as a statement binds it: JSON as its text. */
export const bound = (value: unknown) =>
  value !== null && typeof value === 'object' ? JSON.stringify(value) : value;

/** The array parameters of the nodes beneath a node of `level` (empty when it has none). */
export function subtreeParams(
  level: TreeLevel,
  subtree: NewSubtree | undefined,
): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const beneath of levelsBeneath(level)) {
    const nodes = subtree?.levels[beneath];
    params[subtreeParam(beneath, 'id')] = nodes?.ids ?? [];
    params[subtreeParam(beneath, 'parent')] = nodes?.parents ?? [];
    params[subtreeParam(beneath, 'key')] = nodes?.keys ?? [];
    for (const { column } of TREE_LEVELS[beneath].members) {
      const values = (nodes?.values ?? []) as Record<string, unknown>[];
      params[subtreeParam(beneath, column)] = values.map((value) => bound(value[column]));
    }
  }
  return params;
}
