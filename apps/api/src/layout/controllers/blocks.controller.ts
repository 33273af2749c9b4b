import { ChecksAssetNames } from '../../assets/asset-names.guard';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  BlockResponse,
  CreateBlockDto,
  DuplicateBlockDto,
  MoveBlockDto,
  UpdateBlockDto,
} from '@layout/contracts';
import { type AuthenticatedAccount } from '../../common/auth/authenticated-account';
import {
  ApiChangedResponse,
  ApiCreatedJsonResponse,
  ApiDeletedResponse,
  ApiIdempotencyKey,
  ApiMovedResponse,
  ApiOptionalBody,
  ApiProblems,
  ApiProtected,
  ApiTaggedRead,
  BODY_PROBLEMS,
} from '../../common/openapi/decorators';
import { BLOCK_EXAMPLE, NEW } from '../../common/openapi/examples';
import { ConditionalWrite } from '../../common/decorators/conditional-write.decorator';
import { Conditions, type RequestConditions } from '../../common/http/request-conditions';
import { Idempotency, type IdempotencyRequest } from '../../common/http/idempotency';
import { type Representation } from '../../common/http/representation';
import { CurrentAccount } from '../../common/decorators/current-account.decorator';
import { BlockPath, ProjectPath } from '../params/layout-paths.params';
import { BlocksService } from '../services/blocks.service';

@ApiTags('blocks')
@ApiProtected()
@Controller('projects/:projectId/blocks')
export class BlocksController {
  constructor(private readonly blocks: BlocksService) {}

  @Post()
  @ChecksAssetNames()
  @HttpCode(201)
  @ApiIdempotencyKey()
  @ApiOperation({
    summary: 'Create a block',
    description:
      "Creates a block in the project, at the end of its blocks or at `position`. The block's " +
      'style comes back with every default filled in.',
  })
  @ApiCreatedJsonResponse(BlockResponse, NEW.block, 'The new block.')
  @ApiProblems(...BODY_PROBLEMS, 'notFound', 'limitExceeded')
  create(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ProjectPath,
    @Body() body: CreateBlockDto,
    @Idempotency() idempotency: IdempotencyRequest | undefined,
  ): Promise<Representation<BlockResponse>> {
    return this.blocks.create({ accountId: account.id, ...path }, body, idempotency);
  }

  @Get()
  @ApiOperation({
    summary: 'List the blocks of a project',
    description: "The project's blocks in their stored order, each with its whole subtree.",
  })
  @ApiTaggedRead([BlockResponse], [BLOCK_EXAMPLE], 'The blocks.')
  @ApiProblems('notFound')
  list(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ProjectPath,
    @Conditions() conditions: RequestConditions,
  ): Promise<Representation<BlockResponse[]>> {
    return this.blocks.list({ accountId: account.id, ...path }, conditions);
  }

  @Get(':blockId')
  @ApiOperation({
    summary: 'Retrieve a block',
    description: 'A block with its rows, their columns and their contents, in order.',
  })
  @ApiTaggedRead(BlockResponse, BLOCK_EXAMPLE, 'The block with its subtree.')
  @ApiProblems('notFound')
  retrieve(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: BlockPath,
    @Conditions() conditions: RequestConditions,
  ): Promise<Representation<BlockResponse>> {
    return this.blocks.retrieve({ accountId: account.id, ...path }, conditions);
  }

  @Put(':blockId')
  @ChecksAssetNames()
  @ConditionalWrite()
  @ApiOperation({
    summary: 'Update a block',
    description:
      'Members left out keep their value; a given `style` replaces the stored one whole (its ' +
      'members left out get their defaults); `position` moves the block.',
  })
  @ApiChangedResponse(BlockResponse, BLOCK_EXAMPLE, 'The block with its subtree.')
  @ApiProblems(...BODY_PROBLEMS, 'notFound', 'limitExceeded')
  update(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: BlockPath,
    @Body() body: UpdateBlockDto,
    @Conditions() conditions: RequestConditions,
  ): Promise<Representation<BlockResponse>> {
    return this.blocks.update({ accountId: account.id, ...path }, body, conditions);
  }

  @Delete(':blockId')
  @HttpCode(204)
  @ConditionalWrite()
  @ApiOperation({
    summary: 'Delete a block',
    description: 'Deletes the block with its rows, their columns and their contents.',
  })
  @ApiDeletedResponse('Deleted; no body.')
  @ApiProblems('notFound')
  delete(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: BlockPath,
    @Conditions() conditions: RequestConditions,
  ): Promise<Representation<never>> {
    return this.blocks.delete({ accountId: account.id, ...path }, conditions);
  }

  @Post(':blockId/move')
  @HttpCode(200)
  @ConditionalWrite()
  @ApiIdempotencyKey()
  @ApiOperation({
    summary: 'Move a block',
    description:
      "Moves the block, with everything in it, to `position` among the project's blocks (past " +
      "the end: the end). It keeps its id; its tag becomes the move's revision (so of moves sent " +
      'with one `If-Match`, one goes through), and the tags of the project and of its list of ' +
      'blocks move on.',
  })
  @ApiMovedResponse(BlockResponse, BLOCK_EXAMPLE, 'The block at its new place, with its tag.')
  @ApiProblems(...BODY_PROBLEMS, 'notFound', 'limitExceeded')
  move(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: BlockPath,
    @Body() body: MoveBlockDto,
    @Conditions() conditions: RequestConditions,
    @Idempotency() idempotency: IdempotencyRequest | undefined,
  ): Promise<Representation<BlockResponse>> {
    return this.blocks.move({ accountId: account.id, ...path }, body, conditions, idempotency);
  }

  @Post(':blockId/duplicate')
  @HttpCode(201)
  @ConditionalWrite()
  @ApiIdempotencyKey()
  @ApiOperation({
    summary: 'Duplicate a block',
    description:
      'Copies the block with everything in it, new ids everywhere, at `position` among the ' +
      "project's blocks; without one, right after the original. At most 20 000 nodes per copy, " +
      'and the project stays within its limits (500 blocks, 8 MiB).',
  })
  @ApiOptionalBody(DuplicateBlockDto)
  @ApiCreatedJsonResponse(BlockResponse, BLOCK_EXAMPLE, 'The copy, with its new ids.')
  @ApiProblems(...BODY_PROBLEMS, 'notFound', 'limitExceeded')
  duplicate(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: BlockPath,
    @Body() body: DuplicateBlockDto,
    @Conditions() conditions: RequestConditions,
    @Idempotency() idempotency: IdempotencyRequest | undefined,
  ): Promise<Representation<BlockResponse>> {
    return this.blocks.duplicate({ accountId: account.id, ...path }, body, conditions, idempotency);
  }
}
