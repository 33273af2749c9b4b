import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  CreateRowDto,
  DuplicateRowDto,
  MoveRowDto,
  RowResponse,
  UpdateRowDto,
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
import { NEW, ROW_EXAMPLE } from '../../common/openapi/examples';
import { ConditionalWrite } from '../../common/decorators/conditional-write.decorator';
import { Conditions, type RequestConditions } from '../../common/http/request-conditions';
import { Idempotency, type IdempotencyRequest } from '../../common/http/idempotency';
import { type Representation } from '../../common/http/representation';
import { CurrentAccount } from '../../common/decorators/current-account.decorator';
import { BlockPath, RowPath } from '../params/layout-paths.params';
import { NodesService } from '../services/nodes.service';

@ApiTags('rows')
@ApiProtected()
@Controller('projects/:projectId/blocks/:blockId/rows')
export class RowsController {
  constructor(private readonly nodes: NodesService) {}

  @Post()
  @HttpCode(201)
  @ApiIdempotencyKey()
  @ApiOperation({
    summary: 'Create a row',
    description:
      'Creates a row in the block, at the end of its rows or at `position`; its description is ' +
      '`""` when left out.',
  })
  @ApiOptionalBody(CreateRowDto)
  @ApiCreatedJsonResponse(RowResponse, NEW.row, 'The new row.')
  @ApiProblems(...BODY_PROBLEMS, 'notFound', 'limitExceeded')
  create(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: BlockPath,
    @Body() body: CreateRowDto,
    @Idempotency() idempotency: IdempotencyRequest | undefined,
  ): Promise<Representation<RowResponse>> {
    return this.nodes.create('row', { accountId: account.id, ...path }, body, idempotency);
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
    return this.nodes.list('row', { accountId: account.id, ...path }, conditions);
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
    return this.nodes.retrieve('row', { accountId: account.id, ...path }, conditions);
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
    return this.nodes.update('row', { accountId: account.id, ...path }, body, conditions);
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
    return this.nodes.delete('row', { accountId: account.id, ...path }, conditions);
  }

  @Post(':rowId/move')
  @HttpCode(200)
  @ConditionalWrite()
  @ApiIdempotencyKey()
  @ApiOperation({
    summary: 'Move a row',
    description:
      'Moves the row, with its columns and contents, to the block `blockId` of the project ' +
      '(its own when left out), at `position` (the end when left out), in one transaction. It ' +
      "keeps its id; its tag becomes the move's revision (so of moves sent with one `If-Match`, " +
      'one goes through); `Location` is its new path, and the old one answers 404 from now on. ' +
      'A full block answers 409 `limit-exceeded`.',
  })
  @ApiOptionalBody(MoveRowDto)
  @ApiMovedResponse(RowResponse, ROW_EXAMPLE, 'The row at its new place, with its tag.')
  @ApiProblems(...BODY_PROBLEMS, 'notFound', 'limitExceeded')
  move(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: RowPath,
    @Body() body: MoveRowDto,
    @Conditions() conditions: RequestConditions,
    @Idempotency() idempotency: IdempotencyRequest | undefined,
  ): Promise<Representation<RowResponse>> {
    return this.nodes.move(
      'row',
      { accountId: account.id, ...path },
      body,
      conditions,
      idempotency,
    );
  }

  @Post(':rowId/duplicate')
  @HttpCode(201)
  @ConditionalWrite()
  @ApiIdempotencyKey()
  @ApiOperation({
    summary: 'Duplicate a row',
    description:
      'Copies the row with its columns and contents, new ids everywhere, into the block ' +
      '`blockId` of the project (its own when left out), at `position`; without one, right ' +
      'after the original in its own block, else at the end. At most 20 000 nodes per copy.',
  })
  @ApiOptionalBody(DuplicateRowDto)
  @ApiCreatedJsonResponse(RowResponse, ROW_EXAMPLE, 'The copy, with its new ids.')
  @ApiProblems(...BODY_PROBLEMS, 'notFound', 'limitExceeded')
  duplicate(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: RowPath,
    @Body() body: DuplicateRowDto,
    @Conditions() conditions: RequestConditions,
    @Idempotency() idempotency: IdempotencyRequest | undefined,
  ): Promise<Representation<RowResponse>> {
    return this.nodes.duplicate(
      'row',
      { accountId: account.id, ...path },
      body,
      conditions,
      idempotency,
    );
  }
}
