import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CreateRowDto, RowResponse, UpdateRowDto } from '@layout/contracts';
import { type AuthenticatedAccount } from '../../accounts/authenticated-account';
import {
  ApiCreatedJsonResponse,
  ApiDeletedResponse,
  ApiOkJsonResponse,
  ApiProblems,
  ApiProtected,
  BODY_PROBLEMS,
} from '../../bootstrap/openapi/decorators';
import { NEW, ROW_EXAMPLE } from '../../bootstrap/openapi/examples';
import { CreatesResource } from '../../common/decorators/creates-resource.decorator';
import { type SerializedJson } from '../../common/json/serialized-json';
import { CurrentAccount } from '../../common/decorators/current-account.decorator';
import { presentRow } from '../layout.presenter';
import { BlockPath, RowPath } from '../params/layout-paths.params';
import { RowsService } from '../services/rows.service';

@ApiTags('rows')
@ApiProtected()
@Controller('projects/:projectId/blocks/:blockId/rows')
export class RowsController {
  constructor(private readonly rows: RowsService) {}

  @Post()
  @CreatesResource()
  @ApiOperation({
    summary: 'Create a row',
    description:
      'Creates a row in the block, at the end of its rows or at `position`; its description is ' +
      '`""` when left out.',
  })
  @ApiCreatedJsonResponse(RowResponse, NEW.row, 'The new row.')
  @ApiProblems(...BODY_PROBLEMS, 'notFound')
  async create(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: BlockPath,
    @Body() body: CreateRowDto,
  ): Promise<RowResponse> {
    return presentRow(await this.rows.create({ accountId: account.id, ...path }, body));
  }

  @Get()
  @ApiOperation({
    summary: 'List the rows of a block',
    description:
      "The block's rows in their stored order, each with its columns and their contents.",
  })
  @ApiOkJsonResponse([RowResponse], [ROW_EXAMPLE], 'The rows.')
  @ApiProblems('notFound')
  async list(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: BlockPath,
  ): Promise<SerializedJson<RowResponse[]>> {
    return this.rows.list({ accountId: account.id, ...path });
  }

  @Get(':rowId')
  @ApiOperation({
    summary: 'Retrieve a row',
    description: 'A row with its columns and their contents, in order.',
  })
  @ApiOkJsonResponse(RowResponse, ROW_EXAMPLE, 'The row with its subtree.')
  @ApiProblems('notFound')
  async retrieve(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: RowPath,
  ): Promise<SerializedJson<RowResponse>> {
    return this.rows.retrieve({ accountId: account.id, ...path });
  }

  @Put(':rowId')
  @ApiOperation({
    summary: 'Update a row',
    description:
      "Changes the row's description or moves it to `position`; members left out keep their value.",
  })
  @ApiOkJsonResponse(RowResponse, ROW_EXAMPLE, 'The row with its subtree.')
  @ApiProblems(...BODY_PROBLEMS, 'notFound')
  async update(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: RowPath,
    @Body() body: UpdateRowDto,
  ): Promise<RowResponse> {
    return presentRow(await this.rows.update({ accountId: account.id, ...path }, body));
  }

  @Delete(':rowId')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a row',
    description: 'Deletes the row with its columns and their contents.',
  })
  @ApiDeletedResponse('Deleted; no body.')
  @ApiProblems('notFound')
  async delete(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: RowPath,
  ): Promise<void> {
    await this.rows.delete({ accountId: account.id, ...path });
  }
}
