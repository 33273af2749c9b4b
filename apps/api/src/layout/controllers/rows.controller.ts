import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  CreateRowDto,
  DuplicateRowDto,
  MoveRowDto,
  RowResponse,
  UpdateRowDto,
} from '@layout/contracts';
import { type AuthenticatedAccount } from '../../common/auth/authenticated-account';
import { ApiProtected } from '../../common/openapi/decorators';
import { ConditionalWrite } from '../../common/decorators/conditional-write.decorator';
import { NEW, ROW_EXAMPLE } from '../../common/openapi/examples';
import { Conditions, type RequestConditions } from '../../common/http/request-conditions';
import { Idempotency, type IdempotencyRequest } from '../../common/http/idempotency';
import { type Representation } from '../../common/http/representation';
import { CurrentAccount } from '../../common/decorators/current-account.decorator';
import { BlockPath, RowPath } from '../params/layout-paths.params';
import { NodesService } from '../services/nodes.service';
import {
  ApiNodeChangedResponse,
  ApiNodeCopiedResponse,
  ApiNodeCreatedResponse,
  ApiNodeDeletedResponse,
  ApiNodeListResponse,
  ApiNodeMovedResponse,
  ApiNodeReadResponse,
} from './node-openapi';

@ApiTags('rows')
@ApiProtected()
@Controller('projects/:projectId/blocks/:blockId/rows')
export class RowsController {
  constructor(private readonly nodes: NodesService) {}

  @Post()
  @HttpCode(201)
  @ApiNodeCreatedResponse({
    optionalBody: CreateRowDto,
    summary: 'Create a row',
    description:
      'Creates a row in the block, at the end of its rows or at `position`; its description is ' +
      '`""` when left out.',
    response: RowResponse,
    example: NEW.row,
    returns: 'The new row.',
    problems: ['notFound', 'rowWidthExceeded', 'limitExceeded'],
  })
  create(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: BlockPath,
    @Body() body: CreateRowDto,
    @Idempotency() idempotency: IdempotencyRequest | undefined,
  ): Promise<Representation<RowResponse>> {
    return this.nodes.create('row', { accountId: account.id, ...path }, body, idempotency);
  }

  @Get()
  @ApiNodeListResponse({
    summary: 'List the rows of a block',
    description:
      "The block's rows in their stored order, each with its columns and their contents.",
    response: RowResponse,
    example: ROW_EXAMPLE,
    returns: 'The rows.',
  })
  list(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: BlockPath,
    @Conditions() conditions: RequestConditions,
  ): Promise<Representation<RowResponse[]>> {
    return this.nodes.list('row', { accountId: account.id, ...path }, conditions);
  }

  @Get(':rowId')
  @ApiNodeReadResponse({
    summary: 'Retrieve a row',
    description: 'A row with its columns and their contents, in order.',
    response: RowResponse,
    example: ROW_EXAMPLE,
    returns: 'The row with its subtree.',
  })
  retrieve(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: RowPath,
    @Conditions() conditions: RequestConditions,
  ): Promise<Representation<RowResponse>> {
    return this.nodes.retrieve('row', { accountId: account.id, ...path }, conditions);
  }

  @Put(':rowId')
  @ConditionalWrite()
  @ApiNodeChangedResponse({
    summary: 'Update a row',
    description:
      "Changes the row's description or moves it to `position`; members left out keep their value.",
    response: RowResponse,
    example: ROW_EXAMPLE,
    returns: 'The row with its subtree.',
    problems: ['notFound', 'limitExceeded'],
  })
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
  @ApiNodeDeletedResponse({
    summary: 'Delete a row',
    description: 'Deletes the row with its columns and their contents.',
    returns: 'Deleted; no body.',
  })
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
  @ApiNodeMovedResponse({
    optionalBody: MoveRowDto,
    summary: 'Move a row',
    description:
      'Moves the row, with its columns and contents, to the block `blockId` of the project ' +
      '(its own when left out), at `position` (the end when left out), in one transaction. It ' +
      "keeps its id; its tag becomes the move's revision (so of moves sent with one `If-Match`, " +
      'one goes through); `Location` is its new path, and the old one answers 404 from now on. ' +
      'A full block answers 409 `limit-exceeded`.',
    response: RowResponse,
    example: ROW_EXAMPLE,
    returns: 'The row at its new place, with its tag.',
    problems: ['notFound', 'limitExceeded'],
  })
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
  @ApiNodeCopiedResponse({
    optionalBody: DuplicateRowDto,
    summary: 'Duplicate a row',
    description:
      'Copies the row with its columns and contents, new ids everywhere, into the block ' +
      '`blockId` of the project (its own when left out), at `position`; without one, right ' +
      'after the original in its own block, else at the end. At most 20 000 nodes per copy.',
    response: RowResponse,
    example: ROW_EXAMPLE,
    returns: 'The copy, with its new ids.',
    problems: ['notFound', 'limitExceeded'],
  })
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
