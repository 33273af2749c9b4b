import { type Prisma } from '../../generated/prisma/client';
import { type BlockScope, type ColumnScope, type RowScope } from '../layout.scopes';

// Prisma filters that match a resource only at the end of its exact path and for its owner.

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
