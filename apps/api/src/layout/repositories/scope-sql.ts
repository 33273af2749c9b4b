import { Prisma } from '../../generated/prisma/client';
import {
  type BlockScope,
  type ColumnScope,
  type ContentScope,
  type ProjectScope,
  type RowScope,
} from '../layout.scopes';

// `FROM … WHERE …` clauses that match a resource only at the end of its exact path and for its
// owner, in one statement, under fixed aliases: p project, b block, r row, c column, ct content.
// The locks select from them FOR UPDATE; the documents build their JSON from them.

export const projectMatch = (s: ProjectScope): Prisma.Sql => Prisma.sql`
  FROM projects p
  WHERE p.id = ${s.projectId}::uuid AND p.owner_id = ${s.accountId}::uuid`;

export const blockMatch = (s: BlockScope): Prisma.Sql => Prisma.sql`
  FROM blocks b JOIN projects p ON p.id = b.project_id
  WHERE b.id = ${s.blockId}::uuid AND b.project_id = ${s.projectId}::uuid
    AND p.owner_id = ${s.accountId}::uuid`;

export const rowMatch = (s: RowScope): Prisma.Sql => Prisma.sql`
  FROM rows r JOIN projects p ON p.id = r.project_id
  WHERE r.id = ${s.rowId}::uuid AND r.block_id = ${s.blockId}::uuid
    AND r.project_id = ${s.projectId}::uuid AND p.owner_id = ${s.accountId}::uuid`;

export const columnMatch = (s: ColumnScope): Prisma.Sql => Prisma.sql`
  FROM columns c
    JOIN rows r ON r.id = c.row_id
    JOIN projects p ON p.id = c.project_id
  WHERE c.id = ${s.columnId}::uuid AND c.row_id = ${s.rowId}::uuid
    AND r.block_id = ${s.blockId}::uuid AND c.project_id = ${s.projectId}::uuid
    AND p.owner_id = ${s.accountId}::uuid`;

export const contentMatch = (s: ContentScope): Prisma.Sql => Prisma.sql`
  FROM contents ct
    JOIN columns c ON c.id = ct.column_id
    JOIN rows r ON r.id = c.row_id
    JOIN projects p ON p.id = ct.project_id
  WHERE ct.id = ${s.contentId}::uuid AND ct.column_id = ${s.columnId}::uuid
    AND c.row_id = ${s.rowId}::uuid AND r.block_id = ${s.blockId}::uuid
    AND ct.project_id = ${s.projectId}::uuid AND p.owner_id = ${s.accountId}::uuid`;
