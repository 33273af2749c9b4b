import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { BlockResponse, CreateBlockDto, UpdateBlockDto } from '@layout/contracts';
import { type AuthenticatedAccount } from '../../common/auth/authenticated-account';
import {
  ApiIdempotencyKey,
  ApiChangedResponse,
  ApiCreatedJsonResponse,
  ApiDeletedResponse,
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
}
