import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CreateRowDto, type RowResponse, UpdateRowDto } from '@layout/contracts';
import { type AuthenticatedAccount } from '../../accounts/authenticated-account';
import { CreatesResource } from '../../common/decorators/creates-resource.decorator';
import { CurrentAccount } from '../../common/decorators/current-account.decorator';
import { presentRow } from '../layout.presenter';
import { BlockPath, RowPath } from '../params/layout-paths.params';
import { RowsService } from '../services/rows.service';

@ApiTags('rows')
@ApiBearerAuth()
@Controller('projects/:projectId/blocks/:blockId/rows')
export class RowsController {
  constructor(private readonly rows: RowsService) {}

  /** Create a row in a block. */
  @Post()
  @CreatesResource()
  async create(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: BlockPath,
    @Body() body: CreateRowDto,
  ): Promise<RowResponse> {
    return presentRow(await this.rows.create({ accountId: account.id, ...path }, body));
  }

  /** List the rows of a block, in order, each with its columns and their contents. */
  @Get()
  async list(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: BlockPath,
  ): Promise<RowResponse[]> {
    return (await this.rows.list({ accountId: account.id, ...path })).map(presentRow);
  }

  /** Retrieve a row with its columns and their contents. */
  @Get(':rowId')
  async retrieve(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: RowPath,
  ): Promise<RowResponse> {
    return presentRow(await this.rows.retrieve({ accountId: account.id, ...path }));
  }

  /** Update a row's description or position; members left out keep their value. */
  @Put(':rowId')
  async update(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: RowPath,
    @Body() body: UpdateRowDto,
  ): Promise<RowResponse> {
    return presentRow(await this.rows.update({ accountId: account.id, ...path }, body));
  }

  /** Delete a row with its columns and their contents. */
  @Delete(':rowId')
  @HttpCode(204)
  async delete(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: RowPath,
  ): Promise<void> {
    await this.rows.delete({ accountId: account.id, ...path });
  }
}
