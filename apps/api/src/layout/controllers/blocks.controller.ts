import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  BlockResponse,
  CreateBlockDto,
  DuplicateBlockDto,
  MoveBlockDto,
  UpdateBlockDto,
} from '@layout/contracts';
import { type AuthenticatedAccount } from '../../common/auth/authenticated-account';
import { ApiProtected } from '../../common/openapi/decorators';
import { ConditionalWrite } from '../../common/decorators/conditional-write.decorator';
import { BLOCK_EXAMPLE, NEW } from '../../common/openapi/examples';
import { Conditions, type RequestConditions } from '../../common/http/request-conditions';
import { Idempotency, type IdempotencyRequest } from '../../common/http/idempotency';
import { type Representation } from '../../common/http/representation';
import { CurrentAccount } from '../../common/decorators/current-account.decorator';
import { BlockPath, ProjectPath } from '../params/layout-paths.params';
import { NodesService } from '../services/nodes.service';
import {
  ApiNodeChangedResponse,
  ApiNodeCopiedResponse,
  ApiNodeCreatedResponse,
  ApiNodeDeletedResponse,
  ApiNodeListResponse,
  ApiNodeMovedResponse,
  ApiNodeReadResponse,
} from './node-openapi';

@ApiTags('blocks')
@ApiProtected()
@Controller('projects/:projectId/blocks')
export class BlocksController {
  constructor(private readonly nodes: NodesService) {}

  @Post()
  @HttpCode(201)
  @ApiNodeCreatedResponse({
    summary: 'Create a block',
    description:
      "Creates a block in the project, at the end of its blocks or at `position`. The block's " +
      'style comes back with every default filled in.',
    response: BlockResponse,
    example: NEW.block,
    returns: 'The new block.',
    problems: ['notFound', 'rowWidthExceeded', 'limitExceeded'],
  })
  create(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ProjectPath,
    @Body() body: CreateBlockDto,
    @Idempotency() idempotency: IdempotencyRequest | undefined,
  ): Promise<Representation<BlockResponse>> {
    return this.nodes.create('block', { accountId: account.id, ...path }, body, idempotency);
  }

  @Get()
  @ApiNodeListResponse({
    summary: 'List the blocks of a project',
    description: "The project's blocks in their stored order, each with its whole subtree.",
    response: BlockResponse,
    example: BLOCK_EXAMPLE,
    returns: 'The blocks.',
  })
  list(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ProjectPath,
    @Conditions() conditions: RequestConditions,
  ): Promise<Representation<BlockResponse[]>> {
    return this.nodes.list('block', { accountId: account.id, ...path }, conditions);
  }

  @Get(':blockId')
  @ApiNodeReadResponse({
    summary: 'Retrieve a block',
    description: 'A block with its rows, their columns and their contents, in order.',
    response: BlockResponse,
    example: BLOCK_EXAMPLE,
    returns: 'The block with its subtree.',
  })
  retrieve(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: BlockPath,
    @Conditions() conditions: RequestConditions,
  ): Promise<Representation<BlockResponse>> {
    return this.nodes.retrieve('block', { accountId: account.id, ...path }, conditions);
  }

  @Put(':blockId')
  @ConditionalWrite()
  @ApiNodeChangedResponse({
    summary: 'Update a block',
    description:
      'Members left out keep their value; a given `style` replaces the stored one whole (its ' +
      'members left out get their defaults); `position` moves the block.',
    response: BlockResponse,
    example: BLOCK_EXAMPLE,
    returns: 'The block with its subtree.',
    problems: ['notFound', 'limitExceeded'],
  })
  update(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: BlockPath,
    @Body() body: UpdateBlockDto,
    @Conditions() conditions: RequestConditions,
  ): Promise<Representation<BlockResponse>> {
    return this.nodes.update('block', { accountId: account.id, ...path }, body, conditions);
  }

  @Delete(':blockId')
  @HttpCode(204)
  @ConditionalWrite()
  @ApiNodeDeletedResponse({
    summary: 'Delete a block',
    description: 'Deletes the block with its rows, their columns and their contents.',
    returns: 'Deleted; no body.',
  })
  delete(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: BlockPath,
    @Conditions() conditions: RequestConditions,
  ): Promise<Representation<never>> {
    return this.nodes.delete('block', { accountId: account.id, ...path }, conditions);
  }

  @Post(':blockId/move')
  @HttpCode(200)
  @ConditionalWrite()
  @ApiNodeMovedResponse({
    summary: 'Move a block',
    description:
      "Moves the block, with everything in it, to `position` among the project's blocks (past " +
      "the end: the end). It keeps its id; its tag becomes the move's revision (so of moves sent " +
      'with one `If-Match`, one goes through), and the tags of the project and of its list of ' +
      'blocks move on.',
    response: BlockResponse,
    example: BLOCK_EXAMPLE,
    returns: 'The block at its new place, with its tag.',
    problems: ['notFound', 'limitExceeded'],
  })
  move(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: BlockPath,
    @Body() body: MoveBlockDto,
    @Conditions() conditions: RequestConditions,
    @Idempotency() idempotency: IdempotencyRequest | undefined,
  ): Promise<Representation<BlockResponse>> {
    return this.nodes.move(
      'block',
      { accountId: account.id, ...path },
      body,
      conditions,
      idempotency,
    );
  }

  @Post(':blockId/duplicate')
  @HttpCode(201)
  @ConditionalWrite()
  @ApiNodeCopiedResponse({
    optionalBody: DuplicateBlockDto,
    summary: 'Duplicate a block',
    description:
      'Copies the block with everything in it, new ids everywhere, at `position` among the ' +
      "project's blocks; without one, right after the original. At most 20 000 nodes per copy, " +
      'and the project stays within its limits (500 blocks, 8 MiB).',
    response: BlockResponse,
    example: BLOCK_EXAMPLE,
    returns: 'The copy, with its new ids.',
    problems: ['notFound', 'limitExceeded'],
  })
  duplicate(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: BlockPath,
    @Body() body: DuplicateBlockDto,
    @Conditions() conditions: RequestConditions,
    @Idempotency() idempotency: IdempotencyRequest | undefined,
  ): Promise<Representation<BlockResponse>> {
    return this.nodes.duplicate(
      'block',
      { accountId: account.id, ...path },
      body,
      conditions,
      idempotency,
    );
  }
}
