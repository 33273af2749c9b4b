import { type BlockStyle, type ContentStyle } from '@layout/contracts';
import { type Prisma } from '../../generated/prisma/client';
import {
  type BlockRecord,
  type ColumnRecord,
  type ContentData,
  type ContentRecord,
  type ProjectRecord,
  type RowRecord,
} from '../layout.records';
import { type ContentType } from '../../generated/prisma/enums';

type JsonValue = Prisma.JsonValue;

// JSON columns come back typed as JsonValue; they only ever hold what the services wrote.

export interface ContentRow {
  id: string;
  type: ContentType;
  style: JsonValue;
  data: JsonValue;
}
interface ColumnRow {
  id: string;
  size: number;
  contents: ContentRow[];
}
interface RowRow {
  id: string;
  description: string;
  columns: ColumnRow[];
}
interface BlockRow extends Omit<BlockRecord, 'rows' | 'style'> {
  style: JsonValue;
  rows: RowRow[];
}
interface ProjectRow extends Omit<ProjectRecord, 'blocks'> {
  blocks: BlockRow[];
}

export const toContent = (row: ContentRow): ContentRecord => ({
  id: row.id,
  type: row.type,
  style: row.style as unknown as ContentStyle,
  data: row.data as ContentData,
});

export const toColumn = (row: ColumnRow): ColumnRecord => ({
  id: row.id,
  size: row.size,
  contents: row.contents.map(toContent),
});

export const toRow = (row: RowRow): RowRecord => ({
  id: row.id,
  description: row.description,
  columns: row.columns.map(toColumn),
});

export const toBlock = (row: BlockRow): BlockRecord => ({
  ...row,
  style: row.style as unknown as BlockStyle,
  rows: row.rows.map(toRow),
});

export const toProject = (row: ProjectRow): ProjectRecord => ({
  ...row,
  blocks: row.blocks.map(toBlock),
});
