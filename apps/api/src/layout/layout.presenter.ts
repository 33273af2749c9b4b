import {
  type BlockResponse,
  type ColumnResponse,
  type ContentResponse,
  type ProjectResponse,
  type ProjectSummaryResponse,
  type RowResponse,
} from '@layout/contracts';
import {
  type BlockRecord,
  type ColumnRecord,
  type ContentRecord,
  type ProjectRecord,
  type ProjectSummaryRecord,
  type RowRecord,
} from './layout.records';

// Records to the contract's response shapes: `_id`, sizes as strings, nothing internal.

export const presentContent = (content: ContentRecord): ContentResponse => ({
  _id: content.id,
  type: content.type,
  style: content.style,
  data: content.data,
});

export const presentColumn = (column: ColumnRecord): ColumnResponse => ({
  _id: column.id,
  size: String(column.size),
  contents: column.contents.map(presentContent),
});

export const presentRow = (row: RowRecord): RowResponse => ({
  _id: row.id,
  description: row.description,
  columns: row.columns.map(presentColumn),
});

export const presentBlock = (block: BlockRecord): BlockResponse => ({
  _id: block.id,
  description: block.description,
  style: block.style,
  rows: block.rows.map(presentRow),
  createdAt: block.createdAt.toISOString(),
  updatedAt: block.updatedAt.toISOString(),
});

export const presentProjectSummary = (project: ProjectSummaryRecord): ProjectSummaryResponse => ({
  _id: project.id,
  title: project.title,
  createdAt: project.createdAt.toISOString(),
  updatedAt: project.updatedAt.toISOString(),
});

export const presentProject = (project: ProjectRecord): ProjectResponse => ({
  ...presentProjectSummary(project),
  blocks: project.blocks.map(presentBlock),
});
