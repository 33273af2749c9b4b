import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { type ColumnResponse, CreateColumnDto, UpdateColumnDto } from '@layout/contracts';
import { type AuthenticatedAccount } from '../../accounts/authenticated-account';
import { CreatesResource } from '../../common/decorators/creates-resource.decorator';
import { CurrentAccount } from '../../common/decorators/current-account.decorator';
import { presentColumn } from '../layout.presenter';
import { ColumnPath, RowPath } from '../params/layout-paths.params';
import { ColumnsService } from '../services/columns.service';

@ApiTags('columns')
@ApiBearerAuth()
@Controller('projects/:projectId/blocks/:blockId/rows/:rowId/columns')
export class ColumnsController {
  constructor(private readonly columns: ColumnsService) {}

  /**
   * Create a column in a row, optionally with its contents. The sizes of a row's columns add up
   * to at most 12: a larger size answers 409 with `availableSize`.
   */
  @Post()
  @CreatesResource()
  async create(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: RowPath,
    @Body() body: CreateColumnDto,
  ): Promise<ColumnResponse> {
    return presentColumn(await this.columns.create({ accountId: account.id, ...path }, body));
  }

  /** List the columns of a row, in order, each with its contents. */
  @Get()
  async list(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: RowPath,
  ): Promise<ColumnResponse[]> {
    return (await this.columns.list({ accountId: account.id, ...path })).map(presentColumn);
  }

  /** Retrieve a column with its contents. */
  @Get(':columnId')
  async retrieve(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ColumnPath,
  ): Promise<ColumnResponse> {
    return presentColumn(await this.columns.retrieve({ accountId: account.id, ...path }));
  }

  /**
   * Update a column. Members left out keep their value; `contents`, when given, is the column's
   * complete new list of contents, applied in one transaction.
   */
  @Put(':columnId')
  async update(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ColumnPath,
    @Body() body: UpdateColumnDto,
  ): Promise<ColumnResponse> {
    return presentColumn(await this.columns.update({ accountId: account.id, ...path }, body));
  }

  /** Delete a column and its contents. */
  @Delete(':columnId')
  @HttpCode(204)
  async delete(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ColumnPath,
  ): Promise<void> {
    await this.columns.delete({ accountId: account.id, ...path });
  }
}
