import { type Prisma } from '../../generated/prisma/client';
import {
  type BlockScope,
  type ColumnScope,
  type ContentScope,
  type ProjectScope,
  type RowScope,
} from '../layout.scopes';

// Prisma filters that match a resource only at the end of its exact path and for its owner.

export const projectWhere = (s: ProjectScope): Prisma.ProjectWhereInput => ({
  id: s.projectId,
  ownerId: s.accountId,
});

export const blockWhere = (s: BlockScope): Prisma.BlockWhereInput => ({
  id: s.blockId,
  projectId: s.projectId,
  project: { ownerId: s.accountId },
});

export const rowWhere = (s: RowScope): Prisma.RowWhereInput => ({
  id: s.rowId,
  blockId: s.blockId,
  projectId: s.projectId,
  project: { ownerId: s.accountId },
});

export const columnWhere = (s: ColumnScope): Prisma.ColumnWhereInput => ({
  id: s.columnId,
  rowId: s.rowId,
  projectId: s.projectId,
  row: { blockId: s.blockId },
  project: { ownerId: s.accountId },
});

export const contentWhere = (s: ContentScope): Prisma.ContentWhereInput => ({
  id: s.contentId,
  columnId: s.columnId,
  projectId: s.projectId,
  column: { rowId: s.rowId, row: { blockId: s.blockId } },
  project: { ownerId: s.accountId },
});
