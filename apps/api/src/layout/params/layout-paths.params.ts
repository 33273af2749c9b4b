import { Matches } from 'class-validator';

// Ids are UUIDs (version 7, time-ordered). Anything else cannot name a resource: the validation
// pipe turns a failure on a path parameter into a 404, never a 400.
const RESOURCE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
