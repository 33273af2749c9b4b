import { ChecksAssetNames } from '../../assets/asset-names.guard';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ColumnResponse,
  CreateColumnDto,
  DuplicateColumnDto,
  MoveColumnDto,
  UpdateColumnDto,
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
import { COLUMN_EXAMPLE, NEW } from '../../common/openapi/examples';
import { ConditionalWrite } from '../../common/decorators/conditional-write.decorator';
import { Conditions, type RequestConditions } from '../../common/http/request-conditions';
import { Idempotency, type IdempotencyRequest } from '../../common/http/idempotency';
import { type Representation } from '../../common/http/representation';
import { CurrentAccount } from '../../common/decorators/current-account.decorator';
import { ColumnPath, RowPath } from '../params/layout-paths.params';
import { ColumnsService } from '../services/columns.service';

@ApiTags('columns')
@ApiProtected()
@Controller('projects/:projectId/blocks/:blockId/rows/:rowId/columns')
export class ColumnsController {
  constructor(private readonly columns: ColumnsService) {}

  @Post()
  @ChecksAssetNames()
  @HttpCode(201)
  @ApiIdempotencyKey()
  @ApiOperation({
    summary: 'Create a column',
    description:
      'Creates a column in the row, at the end of its columns or at `position`, optionally with ' +
      "its contents. The sizes of a row's columns add up to at most 12: a size that does not " +
      'fit answers 409 with `availableSize`, also under concurrent requests.',
  })
  @ApiCreatedJsonResponse(ColumnResponse, NEW.column, 'The new column, with its contents.')
  @ApiProblems(...BODY_PROBLEMS, 'notFound', 'rowWidthExceeded', 'limitExceeded')
  create(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: RowPath,
    @Body() body: CreateColumnDto,
    @Idempotency() idempotency: IdempotencyRequest | undefined,
  ): Promise<Representation<ColumnResponse>> {
    return this.columns.create({ accountId: account.id, ...path }, body, idempotency);
  }

  @Get()
  @ApiOperation({
    summary: 'List the columns of a row',
    description: "The row's columns in their stored order, each with its contents.",
  })
  @ApiTaggedRead([ColumnResponse], [COLUMN_EXAMPLE], 'The columns.')
  @ApiProblems('notFound')
  list(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: RowPath,
    @Conditions() conditions: RequestConditions,
  ): Promise<Representation<ColumnResponse[]>> {
    return this.columns.list({ accountId: account.id, ...path }, conditions);
  }

  @Get(':columnId')
  @ApiOperation({
    summary: 'Retrieve a column',
    description: 'A column with its contents, in order.',
  })
  @ApiTaggedRead(ColumnResponse, COLUMN_EXAMPLE, 'The column with its contents.')
  @ApiProblems('notFound')
  retrieve(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ColumnPath,
    @Conditions() conditions: RequestConditions,
  ): Promise<Representation<ColumnResponse>> {
    return this.columns.retrieve({ accountId: account.id, ...path }, conditions);
  }

  @Put(':columnId')
  @ChecksAssetNames()
  @ConditionalWrite()
  @ApiOperation({
    summary: 'Update a column',
    description:
      'Members left out keep their value. `contents`, when given, is the complete new list of ' +
      "the column's contents, applied in one transaction: an element with the `_id` of one of " +
      'its contents updates it, one without `_id` creates one, contents not listed are deleted ' +
      '(an `_id` that is not a content of this column answers 400 and changes nothing). A size ' +
      'that does not fit the row answers 409 with `availableSize`.',
  })
  @ApiChangedResponse(ColumnResponse, COLUMN_EXAMPLE, 'The column with its contents.')
  @ApiProblems(...BODY_PROBLEMS, 'notFound', 'rowWidthExceeded', 'limitExceeded')
  update(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ColumnPath,
    @Body() body: UpdateColumnDto,
    @Conditions() conditions: RequestConditions,
  ): Promise<Representation<ColumnResponse>> {
    return this.columns.update({ accountId: account.id, ...path }, body, conditions);
  }

  @Delete(':columnId')
  @HttpCode(204)
  @ConditionalWrite()
  @ApiOperation({
    summary: 'Delete a column',
    description: 'Deletes the column with its contents.',
  })
  @ApiDeletedResponse('Deleted; no body.')
  @ApiProblems('notFound')
  delete(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ColumnPath,
    @Conditions() conditions: RequestConditions,
  ): Promise<Representation<never>> {
    return this.columns.delete({ accountId: account.id, ...path }, conditions);
  }

  @Post(':columnId/move')
  @HttpCode(200)
  @ConditionalWrite()
  @ApiIdempotencyKey()
  @ApiOperation({
    summary: 'Move a column',
    description:
      'Moves the column, with its contents, to the row `rowId` of the project (its own when ' +
      'left out), at `position` (the end when left out), in one transaction. A row without room ' +
      'for its size answers 409 with `availableSize`. It keeps its id; its tag becomes the ' +
      "move's revision (so of moves sent with one `If-Match`, one goes through); `Location` is " +
      'its new path, and the old one answers 404 from now on.',
  })
  @ApiOptionalBody(MoveColumnDto)
  @ApiMovedResponse(ColumnResponse, COLUMN_EXAMPLE, 'The column at its new place, with its tag.')
  @ApiProblems(...BODY_PROBLEMS, 'notFound', 'rowWidthExceeded', 'limitExceeded')
  move(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ColumnPath,
    @Body() body: MoveColumnDto,
    @Conditions() conditions: RequestConditions,
    @Idempotency() idempotency: IdempotencyRequest | undefined,
  ): Promise<Representation<ColumnResponse>> {
    return this.columns.move({ accountId: account.id, ...path }, body, conditions, idempotency);
  }

  @Post(':columnId/duplicate')
  @HttpCode(201)
  @ConditionalWrite()
  @ApiIdempotencyKey()
  @ApiOperation({
    summary: 'Duplicate a column',
    description:
      'Copies the column with its contents, new ids everywhere, into the row `rowId` of the ' +
      'project (its own when left out), at `position`; without one, right after the original ' +
      'in its own row, else at the end. A copy that does not fit its row answers 409 with ' +
      '`availableSize` and creates nothing.',
  })
  @ApiOptionalBody(DuplicateColumnDto)
  @ApiCreatedJsonResponse(ColumnResponse, COLUMN_EXAMPLE, 'The copy, with its new ids.')
  @ApiProblems(...BODY_PROBLEMS, 'notFound', 'rowWidthExceeded', 'limitExceeded')
  duplicate(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ColumnPath,
    @Body() body: DuplicateColumnDto,
    @Conditions() conditions: RequestConditions,
    @Idempotency() idempotency: IdempotencyRequest | undefined,
  ): Promise<Representation<ColumnResponse>> {
    return this.columns.duplicate(
      { accountId: account.id, ...path },
      body,
      conditions,
      idempotency,
    );
  }
}
