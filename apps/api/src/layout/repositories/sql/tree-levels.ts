/**
 * The levels of the layout tree, top down: the table, alias and path parameter of each, the
 * column that names its parent, and the repository whose statements write it (the prefix of
 * their names, and of their file under layout/queries/).
 */
export const TREE_LEVELS = {
  project: {
    table: 'projects',
    alias: 'p',
    idParam: 'projectId',
    parentColumn: 'owner_id',
    owner: 'projects',
  },
  block: {
    table: 'blocks',
    alias: 'b',
    idParam: 'blockId',
    parentColumn: 'project_id',
    owner: 'blocks',
  },
  row: { table: 'rows', alias: 'r', idParam: 'rowId', parentColumn: 'block_id', owner: 'rows' },
  column: {
    table: 'columns',
    alias: 'c',
    idParam: 'columnId',
    parentColumn: 'row_id',
    owner: 'columns',
  },
  content: {
    table: 'contents',
    alias: 'ct',
    idParam: 'contentId',
    parentColumn: 'column_id',
    owner: 'contents',
  },
} as const;

export type TreeLevel = keyof typeof TREE_LEVELS;
/** The levels that hold a list of children. */
export type ParentLevel = Exclude<TreeLevel, 'content'>;
/** The levels that sit in a parent's list. */
export type ChildLevel = Exclude<TreeLevel, 'project'>;

const ORDER: readonly TreeLevel[] = ['project', 'block', 'row', 'column', 'content'];

export function parentOf(level: ChildLevel): ParentLevel {
  return ORDER[ORDER.indexOf(level) - 1] as ParentLevel;
}

/** `level` and the levels above it, bottom up. */
export function levelAndAncestors(level: TreeLevel): TreeLevel[] {
  return ORDER.slice(0, ORDER.indexOf(level) + 1).reverse();
}

/** `level` and the levels beneath it, top down. */
export function levelAndDescendants(level: TreeLevel): TreeLevel[] {
  return ORDER.slice(ORDER.indexOf(level));
}

/**
 * Gap between the sort keys of appended siblings. Inserting between two siblings takes the
 * middle of their gap, so about 20 inserts at one place fit before the list is renumbered.
 */
export const SORT_KEY_GAP = 1_048_576;
