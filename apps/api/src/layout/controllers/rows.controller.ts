import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  CreateRowDto,
  DuplicateRowDto,
  MoveRowDto,
  RowResponse,
  UpdateRowDto,
} from '@layout/contracts';
import { ApiProtected } from '../../openapi/decorators';
import { NEW, ROW_EXAMPLE } from './layout.examples';
import { BlockPath, RowPath } from '../params/layout-paths.params';
import { NodeController, NodeRoutes } from './node-routes';

/** The routes of rows: what the node service does at every level, documented for rows. */
@ApiTags('rows')
@ApiProtected()
@Controller('projects/:projectId/blocks/:blockId/rows')
@NodeRoutes({
  level: 'row',
  paths: { parent: BlockPath, node: RowPath },
  bodies: {
    create: CreateRowDto,
    update: UpdateRowDto,
    move: MoveRowDto,
    duplicate: DuplicateRowDto,
  },
  response: RowResponse,
  example: ROW_EXAMPLE,
  create: {
    optionalBody: true,
    summary: 'Create a row',
    description:
      'Creates a row in the block, at the end of its rows or at `position`; its description is ' +
      '`""` when left out.',
    example: NEW.row,
    returns: 'The new row.',
    problems: ['notFound', 'rowWidthExceeded', 'limitExceeded'],
  },
  list: {
    summary: 'List the rows of a block',
    description:
      "The block's rows in their stored order, each with its columns and their contents.",
    returns: 'The rows.',
  },
  retrieve: {
    summary: 'Retrieve a row',
    description: 'A row with its columns and their contents, in order.',
    returns: 'The row with its subtree.',
  },
  update: {
    summary: 'Update a row',
    description:
      "Changes the row's description or moves it to `position`; members left out keep their value.",
    returns: 'The row with its subtree.',
    problems: ['notFound', 'limitExceeded'],
  },
  delete: {
    summary: 'Delete a row',
    description: 'Deletes the row with its columns and their contents.',
    returns: 'Deleted; no body.',
  },
  move: {
    optionalBody: true,
    summary: 'Move a row',
    description:
      'Moves the row, with its columns and contents, to the block `blockId` of the project ' +
      '(its own when left out), at `position` (the end when left out), in one transaction. It ' +
      "keeps its id; its tag becomes the move's revision (so of moves sent with one `If-Match`, " +
      'one goes through); `Location` is its new path, and the old one answers 404 from now on. ' +
      'A full block answers 409 `limit-exceeded`.',
    returns: 'The row at its new place, with its tag.',
    problems: ['notFound', 'limitExceeded'],
  },
  duplicate: {
    optionalBody: true,
    summary: 'Duplicate a row',
    description:
      'Copies the row with its columns and contents, new ids everywhere, into the block ' +
      '`blockId` of the project (its own when left out), at `position`; without one, right ' +
      'after the original in its own block, else at the end. At most 20 000 nodes per copy.',
    returns: 'The copy, with its new ids.',
    problems: ['notFound', 'limitExceeded'],
  },
})
export class RowsController extends NodeController {}
