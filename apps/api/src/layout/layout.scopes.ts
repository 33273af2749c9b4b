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
