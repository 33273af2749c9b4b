import { type BlockStyle, type ContentStyle, type ContentType } from '@layout/contracts';

/** What the layout repositories return: plain data, no ORM types. Lists are in stored order. */
export interface ContentRecord {
  id: string;
  type: ContentType;
  style: ContentStyle;
  data: ContentData;
}

export type ContentData = Record<string, unknown>;

export interface ColumnRecord {
  id: string;
  size: number;
  contents: ContentRecord[];
}

export interface RowRecord {
  id: string;
  description: string;
  columns: ColumnRecord[];
}

export interface BlockRecord {
  id: string;
  description: string;
  style: BlockStyle;
  createdAt: Date;
  updatedAt: Date;
  rows: RowRecord[];
}

export interface ProjectSummaryRecord {
  id: string;
  title: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface ProjectRecord extends ProjectSummaryRecord {
  blocks: BlockRecord[];
}

/** A content as it is written: `id` set to update that content in place, absent to create one. */
export interface ContentWrite {
  id?: string;
  type: ContentType;
  style: ContentStyle;
  data: ContentData;
}
