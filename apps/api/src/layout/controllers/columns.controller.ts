import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ColumnResponse, CreateColumnDto, UpdateColumnDto } from '@layout/contracts';
import { type AuthenticatedAccount } from '../../accounts/authenticated-account';
import {
  ApiCreatedJsonResponse,
  ApiDeletedResponse,
  ApiOkJsonResponse,
  ApiProblems,
  ApiProtected,
  BODY_PROBLEMS,
} from '../../bootstrap/openapi/decorators';
import { COLUMN_EXAMPLE, NEW } from '../../bootstrap/openapi/examples';
import { CreatesResource } from '../../common/decorators/creates-resource.decorator';
import { type SerializedJson } from '../../common/json/serialized-json';
import { CurrentAccount } from '../../common/decorators/current-account.decorator';
import { presentColumn } from '../layout.presenter';
import { ColumnPath, RowPath } from '../params/layout-paths.params';
import { ColumnsService } from '../services/columns.service';

@ApiTags('columns')
@ApiProtected()
@Controller('projects/:projectId/blocks/:blockId/rows/:rowId/columns')
export class ColumnsController {
  constructor(private readonly columns: ColumnsService) {}

  @Post()
  @CreatesResource()
  @ApiOperation({
    summary: 'Create a column',
    description:
      'Creates a column in the row, at the end of its columns or at `position`, optionally with ' +
      "its contents. The sizes of a row's columns add up to at most 12: a size that does not " +
      'fit answers 409 with `availableSize`, also under concurrent requests.',
  })
  @ApiCreatedJsonResponse(ColumnResponse, NEW.column, 'The new column, with its contents.')
  @ApiProblems(...BODY_PROBLEMS, 'notFound', 'rowWidthExceeded')
  async create(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: RowPath,
    @Body() body: CreateColumnDto,
  ): Promise<ColumnResponse> {
    return presentColumn(await this.columns.create({ accountId: account.id, ...path }, body));
  }

  @Get()
  @ApiOperation({
    summary: 'List the columns of a row',
    description: "The row's columns in their stored order, each with its contents.",
  })
  @ApiOkJsonResponse([ColumnResponse], [COLUMN_EXAMPLE], 'The columns.')
  @ApiProblems('notFound')
  async list(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: RowPath,
  ): Promise<SerializedJson<ColumnResponse[]>> {
    return this.columns.list({ accountId: account.id, ...path });
  }

  @Get(':columnId')
  @ApiOperation({
    summary: 'Retrieve a column',
    description: 'A column with its contents, in order.',
  })
  @ApiOkJsonResponse(ColumnResponse, COLUMN_EXAMPLE, 'The column with its contents.')
  @ApiProblems('notFound')
  async retrieve(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ColumnPath,
  ): Promise<SerializedJson<ColumnResponse>> {
    return this.columns.retrieve({ accountId: account.id, ...path });
  }

  @Put(':columnId')
  @ApiOperation({
    summary: 'Update a column',
    description:
      'Members left out keep their value. `contents`, when given, is the complete new list of ' +
      "the column's contents, applied in one transaction: an element with the `_id` of one of " +
      'its contents updates it, one without `_id` creates one, contents not listed are deleted ' +
      '(an `_id` that is not a content of this column answers 400 and changes nothing). A size ' +
      'that does not fit the row answers 409 with `availableSize`.',
  })
  @ApiOkJsonResponse(ColumnResponse, COLUMN_EXAMPLE, 'The column with its contents.')
  @ApiProblems(...BODY_PROBLEMS, 'notFound', 'rowWidthExceeded')
  async update(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ColumnPath,
    @Body() body: UpdateColumnDto,
  ): Promise<SerializedJson<ColumnResponse>> {
    return this.columns.update({ accountId: account.id, ...path }, body);
  }

  @Delete(':columnId')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a column',
    description: 'Deletes the column with its contents.',
  })
  @ApiDeletedResponse('Deleted; no body.')
  @ApiProblems('notFound')
  async delete(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ColumnPath,
  ): Promise<void> {
    await this.columns.delete({ accountId: account.id, ...path });
  }
}
