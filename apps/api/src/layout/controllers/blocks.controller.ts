import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { BlockResponse, CreateBlockDto, UpdateBlockDto } from '@layout/contracts';
import { type AuthenticatedAccount } from '../../accounts/authenticated-account';
import {
  ApiCreatedJsonResponse,
  ApiDeletedResponse,
  ApiOkJsonResponse,
  ApiProblems,
  ApiProtected,
  BODY_PROBLEMS,
} from '../../bootstrap/openapi/decorators';
import { BLOCK_EXAMPLE, NEW } from '../../bootstrap/openapi/examples';
import { CreatesResource } from '../../common/decorators/creates-resource.decorator';
import { type SerializedJson } from '../../common/json/serialized-json';
import { CurrentAccount } from '../../common/decorators/current-account.decorator';
import { presentBlock } from '../layout.presenter';
import { BlockPath, ProjectPath } from '../params/layout-paths.params';
import { BlocksService } from '../services/blocks.service';

@ApiTags('blocks')
@ApiProtected()
@Controller('projects/:projectId/blocks')
export class BlocksController {
  constructor(private readonly blocks: BlocksService) {}

  @Post()
  @CreatesResource()
  @ApiOperation({
    summary: 'Create a block',
    description:
      "Creates a block in the project, at the end of its blocks or at `position`. The block's " +
      'style comes back with every default filled in.',
  })
  @ApiCreatedJsonResponse(BlockResponse, NEW.block, 'The new block.')
  @ApiProblems(...BODY_PROBLEMS, 'notFound')
  async create(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ProjectPath,
    @Body() body: CreateBlockDto,
  ): Promise<BlockResponse> {
    return presentBlock(await this.blocks.create({ accountId: account.id, ...path }, body));
  }

  @Get()
  @ApiOperation({
    summary: 'List the blocks of a project',
    description: "The project's blocks in their stored order, each with its whole subtree.",
  })
  @ApiOkJsonResponse([BlockResponse], [BLOCK_EXAMPLE], 'The blocks.')
  @ApiProblems('notFound')
  async list(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ProjectPath,
  ): Promise<SerializedJson<BlockResponse[]>> {
    return this.blocks.list({ accountId: account.id, ...path });
  }

  @Get(':blockId')
  @ApiOperation({
    summary: 'Retrieve a block',
    description: 'A block with its rows, their columns and their contents, in order.',
  })
  @ApiOkJsonResponse(BlockResponse, BLOCK_EXAMPLE, 'The block with its subtree.')
  @ApiProblems('notFound')
  async retrieve(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: BlockPath,
  ): Promise<SerializedJson<BlockResponse>> {
    return this.blocks.retrieve({ accountId: account.id, ...path });
  }

  @Put(':blockId')
  @ApiOperation({
    summary: 'Update a block',
    description:
      'Members left out keep their value; a given `style` replaces the stored one whole (its ' +
      'members left out get their defaults); `position` moves the block.',
  })
  @ApiOkJsonResponse(BlockResponse, BLOCK_EXAMPLE, 'The block with its subtree.')
  @ApiProblems(...BODY_PROBLEMS, 'notFound')
  async update(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: BlockPath,
    @Body() body: UpdateBlockDto,
  ): Promise<BlockResponse> {
    return presentBlock(await this.blocks.update({ accountId: account.id, ...path }, body));
  }

  @Delete(':blockId')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a block',
    description: 'Deletes the block with its rows, their columns and their contents.',
  })
  @ApiDeletedResponse('Deleted; no body.')
  @ApiProblems('notFound')
  async delete(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: BlockPath,
  ): Promise<void> {
    await this.blocks.delete({ accountId: account.id, ...path });
  }
}
