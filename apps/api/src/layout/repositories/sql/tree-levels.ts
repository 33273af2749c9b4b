/**
 * A member a node of a level stores besides its id, parent, place and bookkeeping: its column
 * (and the statements' parameter of the same name) and the type a parameter is cast to.
 */
export interface StoredMember {
  readonly column: string;
  readonly type: string;
  /** Stored as JSON text, as written: compared as jsonb, so that key order and spacing do not count. */
  readonly json?: true;
  /**
   * Left out of an update, it keeps its value while the member `reset.by` names keeps its own,
   * and becomes `reset.to` (an SQL value) when that one changes: a content's data resets when its
   * type changes. Worked out by the statement, so that an update needs no read before it.
   */
  readonly reset?: { readonly by: string; readonly to: string };
}

/**
 * The levels of the layout tree, top down: the table, alias and path parameter of each, the
 * column that names its parent, and what a node of it stores (its `members`). Everything the
 * statements of the tree do differently from level to level is read from here.
 */
export const TREE_LEVELS = {
  project: {
    table: 'projects',
    alias: 'p',
    idParam: 'projectId',
    parentColumn: 'owner_id',
    members: [{ column: 'title', type: 'text' }],
    stamped: true,
  },
  block: {
    table: 'blocks',
    alias: 'b',
    idParam: 'blockId',
    parentColumn: 'project_id',
    members: [
      { column: 'description', type: 'text' },
      { column: 'style', type: 'json', json: true },
    ],
    stamped: true,
  },
  row: {
    table: 'rows',
    alias: 'r',
    idParam: 'rowId',
    parentColumn: 'block_id',
    members: [{ column: 'description', type: 'text' }],
    stamped: false,
  },
  column: {
    table: 'columns',
    alias: 'c',
    idParam: 'columnId',
    parentColumn: 'row_id',
    members: [{ column: 'size', type: 'smallint' }],
    stamped: false,
  },
  content: {
    table: 'contents',
    alias: 'ct',
    idParam: 'contentId',
    parentColumn: 'column_id',
    members: [
      { column: 'type', type: 'content_type' },
      { column: 'style', type: 'json', json: true },
      { column: 'data', type: 'json', json: true, reset: { by: 'type', to: `'{}'::json` } },
    ],
    stamped: false,
  },
} as const satisfies Record<
  string,
  {
    table: string;
    alias: string;
    idParam: string;
    parentColumn: string;
    members: readonly StoredMember[];
    /** Whether its rows carry `updated_at`, which moves when its members change. */
    stamped: boolean;
  }
>;

export type TreeLevel = keyof typeof TREE_LEVELS;
/** The levels that hold a list of children. */
export type ParentLevel = Exclude<TreeLevel, 'content'>;
/** The levels that sit in a parent's list. */
export type ChildLevel = Exclude<TreeLevel, 'project'>;

/** The levels that sit in a parent's list, top down. */
export const CHILD_LEVELS: readonly ChildLevel[] = ['block', 'row', 'column', 'content'];

const ORDER: readonly TreeLevel[] = ['project', ...CHILD_LEVELS];

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
 * The name of a statement of the tree that does `intent` at `level`: a project's belong to the
 * projects' repository, every other level's to the nodes' (the prefix of the names, and of the
 * file under layout/queries/).
 */
export function statementName(level: TreeLevel, intent: string): string {
  return level === 'project' ? `projects.${intent}` : `nodes.${level}.${intent}`;
}

/**
 * Gap between the sort keys of appended siblings. Inserting between two siblings takes the
 * middle of their gap, so about 20 inserts at one place fit before the list is renumbered.
 */
export const SORT_KEY_GAP = 1_048_576;
