/**
 * Where an operation acts: the caller's account and the path down to the resource. A scope
 * matches only when every id belongs to its parent and the project to the account; anything
 * else is "not found", which is how another account's data stays invisible.
 */
export interface ProjectScope {
  accountId: string;
  projectId: string;
}

export interface BlockScope extends ProjectScope {
  blockId: string;
}

export interface RowScope extends BlockScope {
  rowId: string;
}

export interface ColumnScope extends RowScope {
  columnId: string;
}

export interface ContentScope extends ColumnScope {
  contentId: string;
}

/** The scope of a node of each level of the tree. */
export interface LevelScopes {
  project: ProjectScope;
  block: BlockScope;
  row: RowScope;
  column: ColumnScope;
  content: ContentScope;
}

/** The level a node of `L` sits in. */
export type ParentOf<L extends keyof LevelScopes> = {
  project: never;
  block: 'project';
  row: 'block';
  column: 'row';
  content: 'column';
}[L];

/** The scope of a node of level `L`. */
export type NodeScope<L extends keyof LevelScopes> = LevelScopes[L];

/** The scope of the parent of a node of level `L`: where it is created, and its list read. */
export type ParentScope<L extends Exclude<keyof LevelScopes, 'project'>> = LevelScopes[ParentOf<L>];
