import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  CreateBlockDto,
  DuplicateBlockDto,
  MoveBlockDto,
  BlockResponse,
  UpdateBlockDto,
} from '@layout/contracts';
import { ApiProtected } from '../../openapi/decorators';
import { BLOCK_EXAMPLE, NEW } from './layout.examples';
import { BlockPath, ProjectPath } from '../params/layout-paths.params';
import { NodeController, NodeRoutes } from './node-routes';

/** The routes of blocks: what the node service does at every level, documented for blocks. */
@ApiTags('blocks')
@ApiProtected()
@Controller('projects/:projectId/blocks')
@NodeRoutes({
  level: 'block',
  paths: { parent: ProjectPath, node: BlockPath },
  bodies: {
    create: CreateBlockDto,
    update: UpdateBlockDto,
    move: MoveBlockDto,
    duplicate: DuplicateBlockDto,
  },
  response: BlockResponse,
  example: BLOCK_EXAMPLE,
  create: {
    summary: 'Create a block',
    description:
      "Creates a block in the project, at the end of its blocks or at `position`. The block's " +
      'style comes back with every default filled in.',
    example: NEW.block,
    returns: 'The new block.',
    problems: ['notFound', 'rowWidthExceeded', 'limitExceeded'],
  },
  list: {
    summary: 'List the blocks of a project',
    description: "The project's blocks in their stored order, each with its whole subtree.",
    returns: 'The blocks.',
  },
  retrieve: {
    summary: 'Retrieve a block',
    description: 'A block with its rows, their columns and their contents, in order.',
    returns: 'The block with its subtree.',
  },
  update: {
    summary: 'Update a block',
    description:
      'Members left out keep their value; a given `style` replaces the stored one whole (its ' +
      'members left out get their defaults); `position` moves the block.',
    returns: 'The block with its subtree.',
    problems: ['notFound', 'limitExceeded'],
  },
  delete: {
    summary: 'Delete a block',
    description: 'Deletes the block with its rows, their columns and their contents.',
    returns: 'Deleted; no body.',
  },
  move: {
    summary: 'Move a block',
    description:
      "Moves the block, with everything in it, to `position` among the project's blocks (past " +
      "the end: the end). It keeps its id; its tag becomes the move's revision (so of moves sent " +
      'with one `If-Match`, one goes through), and the tags of the project and of its list of ' +
      'blocks move on.',
    returns: 'The block at its new place, with its tag.',
    problems: ['notFound', 'limitExceeded'],
  },
  duplicate: {
    optionalBody: true,
    summary: 'Duplicate a block',
    description:
      'Copies the block with everything in it, new ids everywhere, at `position` among the ' +
      "project's blocks; without one, right after the original. At most 20 000 nodes per copy, " +
      'and the project stays within its limits (500 blocks, 8 MiB).',
    returns: 'The copy, with its new ids.',
    problems: ['notFound', 'limitExceeded'],
  },
})
export class BlocksController extends NodeController {}
