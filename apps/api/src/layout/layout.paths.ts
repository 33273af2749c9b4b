import {
  type BlockScope,
  type ColumnScope,
  type ContentScope,
  type LevelScopes,
  type ProjectScope,
  type RowScope,
} from './layout.scopes';
import {
  CHILD_LEVELS,
  type ChildLevel,
  parentOf,
  TREE_LEVELS,
  type TreeLevel,
} from './repositories/sql/tree-levels';

/** The path segment of each level's lists: `/projects/<p>/blocks/<b>`. */
export const SEGMENTS: Record<ChildLevel, string> = {
  block: 'blocks',
  row: 'rows',
  column: 'columns',
  content: 'contents',
};

/** The levels from the top down to `level`, the project left out. */
const levelsTo = (level: TreeLevel) =>
  level === 'project' ? [] : CHILD_LEVELS.slice(0, CHILD_LEVELS.indexOf(level) + 1);

const pathOfIds = (projectId: string, levels: readonly ChildLevel[], ids: readonly string[]) =>
  `/projects/${projectId}${levels.map((level, i) => `/${SEGMENTS[level]}/${ids[i]}`).join('')}`;

/** The path of a node of `level`, as the API addresses it (`Location`, the history). */
function nodePath<L extends TreeLevel>(level: L, scope: Omit<LevelScopes[L], 'accountId'>): string {
  const levels = levelsTo(level);
  const ids = scope as unknown as Record<string, string>;
  return pathOfIds(
    scope.projectId,
    levels,
    levels.map((l) => ids[TREE_LEVELS[l].idParam]),
  );
}

/** The path of each node of the tree, as the API addresses it (`Location`, later history). */
export const pathOf = {
  node: nodePath,
  /** The list that holds the nodes of `level` under the parent of `scope`. */
  list: <L extends ChildLevel>(level: L, scope: Omit<LevelScopes[L], 'accountId'> | object) =>
    `${nodePath(parentOf(level), scope as LevelScopes[ChildLevel])}/${SEGMENTS[level]}`,
  project: (s: Pick<ProjectScope, 'projectId'>) => nodePath('project', s),
  block: (s: Omit<BlockScope, 'accountId'>) => nodePath('block', s),
  row: (s: Omit<RowScope, 'accountId'>) => nodePath('row', s),
  column: (s: Omit<ColumnScope, 'accountId'>) => nodePath('column', s),
  content: (s: Omit<ContentScope, 'accountId'>) => nodePath('content', s),
} as const;

/**
 * The path of the node `id` of `level` placed under `parent` (a move's or a copy's new place):
 * the parent's id, and those of the row and the block above it, as the statement found them.
 */
export function pathUnder(
  level: ChildLevel,
  projectId: string,
  parent: { id: string; rowId: string | null; blockId: string | null },
  id: string,
): string {
  const above =
    level === 'block'
      ? []
      : [parent.blockId, parent.rowId, parent.id].filter((part): part is string => part !== null);
  return pathOfIds(projectId, levelsTo(level), [...above, id]);
}
