import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CreateRowDto, RowResponse, UpdateRowDto } from '@layout/contracts';
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
import { NEW, ROW_EXAMPLE } from '../../common/openapi/examples';
import { ConditionalWrite } from '../../common/decorators/conditional-write.decorator';
import { Conditions, type RequestConditions } from '../../common/http/request-conditions';
import { Idempotency, type IdempotencyRequest } from '../../common/http/idempotency';
import { type Representation } from '../../common/http/representation';
import { CurrentAccount } from '../../common/decorators/current-account.decorator';
import { BlockPath, RowPath } from '../params/layout-paths.params';
import { RowsService } from '../services/rows.service';

@ApiTags('rows')
@ApiProtected()
@Controller('projects/:projectId/blocks/:blockId/rows')
export class RowsController {
  constructor(private readonly rows: RowsService) {}

  @Post()
  @HttpCode(201)
  @ApiIdempotencyKey()
  @ApiOperation({
    summary: 'Create a row',
    description:
      'Creates a row in the block, at the end of its rows or at `position`; its description is ' +
      '`""` when left out.',
  })
  @ApiCreatedJsonResponse(RowResponse, NEW.row, 'The new row.')
  @ApiProblems(...BODY_PROBLEMS, 'notFound', 'limitExceeded')
  create(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: BlockPath,
    @Body() body: CreateRowDto,
    @Idempotency() idempotency: IdempotencyRequest | undefined,
  ): Promise<Representation<RowResponse>> {
    return this.rows.create({ accountId: account.id, ...path }, body, idempotency);
  }

  @Get()
  @ApiOperation({
    summary: 'List the rows of a block',
    description:
      "The block's rows in their stored order, each with its columns and their contents.",
  })
  @ApiTaggedRead([RowResponse], [ROW_EXAMPLE], 'The rows.')
  @ApiProblems('notFound')
  list(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: BlockPath,
    @Conditions() conditions: RequestConditions,
  ): Promise<Representation<RowResponse[]>> {
    return this.rows.list({ accountId: account.id, ...path }, conditions);
  }

  @Get(':rowId')
  @ApiOperation({
    summary: 'Retrieve a row',
    description: 'A row with its columns and their contents, in order.',
  })
  @ApiTaggedRead(RowResponse, ROW_EXAMPLE, 'The row with its subtree.')
  @ApiProblems('notFound')
  retrieve(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: RowPath,
    @Conditions() conditions: RequestConditions,
  ): Promise<Representation<RowResponse>> {
    return this.rows.retrieve({ accountId: account.id, ...path }, conditions);
  }

  @Put(':rowId')
  @ConditionalWrite()
  @ApiOperation({
    summary: 'Update a row',
    description:
      "Changes the row's description or moves it to `position`; members left out keep their value.",
  })
  @ApiChangedResponse(RowResponse, ROW_EXAMPLE, 'The row with its subtree.')
  @ApiProblems(...BODY_PROBLEMS, 'notFound', 'limitExceeded')
  update(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: RowPath,
    @Body() body: UpdateRowDto,
    @Conditions() conditions: RequestConditions,
  ): Promise<Representation<RowResponse>> {
    return this.rows.update({ accountId: account.id, ...path }, body, conditions);
  }

  @Delete(':rowId')
  @HttpCode(204)
  @ConditionalWrite()
  @ApiOperation({
    summary: 'Delete a row',
    description: 'Deletes the row with its columns and their contents.',
  })
  @ApiDeletedResponse('Deleted; no body.')
  @ApiProblems('notFound')
  delete(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: RowPath,
    @Conditions() conditions: RequestConditions,
  ): Promise<Representation<never>> {
    return this.rows.delete({ accountId: account.id, ...path }, conditions);
  }
}
