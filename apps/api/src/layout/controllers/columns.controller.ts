import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  CreateColumnDto,
  DuplicateColumnDto,
  MoveColumnDto,
  ColumnResponse,
  UpdateColumnDto,
} from '@layout/contracts';
import { ApiProtected } from '../../openapi/decorators';
import { COLUMN_EXAMPLE, NEW } from './layout.examples';
import { ColumnPath, RowPath } from '../params/layout-paths.params';
import { NodeController, NodeRoutes } from './node-routes';

/** The routes of columns: what the node service does at every level, documented for columns. */
@ApiTags('columns')
@ApiProtected()
@Controller('projects/:projectId/blocks/:blockId/rows/:rowId/columns')
@NodeRoutes({
  level: 'column',
  paths: { parent: RowPath, node: ColumnPath },
  bodies: {
    create: CreateColumnDto,
    update: UpdateColumnDto,
    move: MoveColumnDto,
    duplicate: DuplicateColumnDto,
  },
  response: ColumnResponse,
  example: COLUMN_EXAMPLE,
  create: {
    summary: 'Create a column',
    description:
      'Creates a column in the row, at the end of its columns or at `position`, optionally with ' +
      "its contents. The sizes of a row's columns add up to at most 12: a size that does not " +
      'fit answers 409 with `availableSize`, also under concurrent requests.',
    example: NEW.column,
    returns: 'The new column, with its contents.',
    problems: ['notFound', 'rowWidthExceeded', 'limitExceeded'],
  },
  list: {
    summary: 'List the columns of a row',
    description: "The row's columns in their stored order, each with its contents.",
    returns: 'The columns.',
  },
  retrieve: {
    summary: 'Retrieve a column',
    description: 'A column with its contents, in order.',
    returns: 'The column with its contents.',
  },
  update: {
    summary: 'Update a column',
    description:
      'Members left out keep their value. `contents`, when given, is the complete new list of ' +
      "the column's contents, applied in one transaction: an element with the `_id` of one of " +
      'its contents updates it, one without `_id` creates one, contents not listed are deleted ' +
      '(an `_id` that is not a content of this column answers 400 and changes nothing). A size ' +
      'that does not fit the row answers 409 with `availableSize`.',
    returns: 'The column with its contents.',
    problems: ['notFound', 'rowWidthExceeded', 'limitExceeded'],
  },
  delete: {
    summary: 'Delete a column',
    description: 'Deletes the column with its contents.',
    returns: 'Deleted; no body.',
  },
  move: {
    optionalBody: true,
    summary: 'Move a column',
    description:
      'Moves the column, with its contents, to the row `rowId` of the project (its own when ' +
      'left out), at `position` (the end when left out), in one transaction. A row without room ' +
      'for its size answers 409 with `availableSize`. It keeps its id; its tag becomes the ' +
      "move's revision (so of moves sent with one `If-Match`, one goes through); `Location` is " +
      'its new path, and the old one answers 404 from now on.',
    returns: 'The column at its new place, with its tag.',
    problems: ['notFound', 'rowWidthExceeded', 'limitExceeded'],
  },
  duplicate: {
    optionalBody: true,
    summary: 'Duplicate a column',
    description:
      'Copies the column with its contents, new ids everywhere, into the row `rowId` of the ' +
      'project (its own when left out), at `position`; without one, right after the original ' +
      'in its own row, else at the end. A copy that does not fit its row answers 409 with ' +
      '`availableSize` and creates nothing.',
    returns: 'The copy, with its new ids.',
    problems: ['notFound', 'rowWidthExceeded', 'limitExceeded'],
  },
})
export class ColumnsController extends NodeController {}
