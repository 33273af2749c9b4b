import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { type BlockResponse, CreateBlockDto, UpdateBlockDto } from '@layout/contracts';
import { type AuthenticatedAccount } from '../../accounts/authenticated-account';
import { CreatesResource } from '../../common/decorators/creates-resource.decorator';
import { CurrentAccount } from '../../common/decorators/current-account.decorator';
import { presentBlock } from '../layout.presenter';
import { BlockPath, ProjectPath } from '../params/layout-paths.params';
import { BlocksService } from '../services/blocks.service';

@ApiTags('blocks')
@ApiBearerAuth()
@Controller('projects/:projectId/blocks')
export class BlocksController {
  constructor(private readonly blocks: BlocksService) {}

  /** Create a block in a project. Its style comes back with every default filled in. */
  @Post()
  @CreatesResource()
  async create(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ProjectPath,
    @Body() body: CreateBlockDto,
  ): Promise<BlockResponse> {
    return presentBlock(await this.blocks.create({ accountId: account.id, ...path }, body));
  }

  /** List the blocks of a project, in order, each with its whole subtree. */
  @Get()
  async list(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ProjectPath,
  ): Promise<BlockResponse[]> {
    return (await this.blocks.list({ accountId: account.id, ...path })).map(presentBlock);
  }

  /** Retrieve a block with its rows, their columns and their contents. */
  @Get(':blockId')
  async retrieve(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: BlockPath,
  ): Promise<BlockResponse> {
    return presentBlock(await this.blocks.retrieve({ accountId: account.id, ...path }));
  }

  /** Update a block; members left out keep their value, a given style replaces the stored one. */
  @Put(':blockId')
  async update(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: BlockPath,
    @Body() body: UpdateBlockDto,
  ): Promise<BlockResponse> {
    return presentBlock(await this.blocks.update({ accountId: account.id, ...path }, body));
  }

  /** Delete a block with its whole subtree. */
  @Delete(':blockId')
  @HttpCode(204)
  async delete(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: BlockPath,
  ): Promise<void> {
    await this.blocks.delete({ accountId: account.id, ...path });
  }
}
