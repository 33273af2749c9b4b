import { Matches } from 'class-validator';
import { RESOURCE_ID } from '../../common/pipes/resource-id';

// These classes describe the path parameters (for the OpenAPI document). The validation pipe
// checks them against RESOURCE_ID directly: a malformed id is a 404, never a 400.

export class ProjectPath {
  /** Id of the project. */
  @Matches(RESOURCE_ID)
  projectId!: string;
}

export class BlockPath extends ProjectPath {
  /** Id of the block. */
  @Matches(RESOURCE_ID)
  blockId!: string;
}

export class RowPath extends BlockPath {
  /** Id of the row. */
  @Matches(RESOURCE_ID)
  rowId!: string;
}

export class ColumnPath extends RowPath {
  /** Id of the column. */
  @Matches(RESOURCE_ID)
  columnId!: string;
}

export class ContentPath extends ColumnPath {
  /** Id of the content. */
  @Matches(RESOURCE_ID)
  contentId!: string;
}
