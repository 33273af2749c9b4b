import {
  type BlockScope,
  type ColumnScope,
  type ContentScope,
  type ProjectScope,
  type RowScope,
} from './layout.scopes';

/** The path of each node of the tree, as the API addresses it (`Location`, later history). */
export const pathOf = {
  project: (s: Pick<ProjectScope, 'projectId'>) => `/projects/${s.projectId}`,
  block: (s: Omit<BlockScope, 'accountId'>) => `${pathOf.project(s)}/blocks/${s.blockId}`,
  row: (s: Omit<RowScope, 'accountId'>) => `${pathOf.block(s)}/rows/${s.rowId}`,
  column: (s: Omit<ColumnScope, 'accountId'>) => `${pathOf.row(s)}/columns/${s.columnId}`,
  content: (s: Omit<ContentScope, 'accountId'>) => `${pathOf.column(s)}/contents/${s.contentId}`,
} as const;
