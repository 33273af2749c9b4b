import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  ContentResponse,
  CreateContentDto,
  DuplicateContentDto,
  MoveContentDto,
  UpdateContentDto,
} from '@layout/contracts';
import { type AuthenticatedAccount } from '../../common/auth/authenticated-account';
import { ApiProtected } from '../../common/openapi/decorators';
import { ConditionalWrite } from '../../common/decorators/conditional-write.decorator';
import { CONTENT_EXAMPLE, NEW } from '../../common/openapi/examples';
import { Conditions, type RequestConditions } from '../../common/http/request-conditions';
import { Idempotency, type IdempotencyRequest } from '../../common/http/idempotency';
import { type Representation } from '../../common/http/representation';
import { CurrentAccount } from '../../common/decorators/current-account.decorator';
import { ColumnPath, ContentPath } from '../params/layout-paths.params';
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

@ApiTags('contents')
@ApiProtected()
@Controller('projects/:projectId/blocks/:blockId/rows/:rowId/columns/:columnId/contents')
export class ContentsController {
  constructor(private readonly nodes: NodesService) {}

  @Post()
  @HttpCode(201)
  @ApiNodeCreatedResponse({
    summary: 'Create a content',
    description:
      'Creates a content in the column, at the end of its contents or at `position`. `data` ' +
      'holds the members of its `type` (text: `html`, stored sanitised; image: `url`, `width`, ' +
      '`height`, `alt`; video: `url`, `provider`, inferred from the URL when left out; quote: ' +
      '`options`, `content`; empty: none). The style comes back with every default filled in.',
    response: ContentResponse,
    example: NEW.content,
    returns: 'The new content.',
    problems: ['notFound', 'limitExceeded'],
  })
  create(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ColumnPath,
    @Body() body: CreateContentDto,
    @Idempotency() idempotency: IdempotencyRequest | undefined,
  ): Promise<Representation<ContentResponse>> {
    return this.nodes.create('content', { accountId: account.id, ...path }, body, idempotency);
  }

  @Get()
  @ApiNodeListResponse({
    summary: 'List the contents of a column',
    description: "The column's contents in their stored order.",
    response: ContentResponse,
    example: CONTENT_EXAMPLE,
    returns: 'The contents.',
  })
  list(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ColumnPath,
    @Conditions() conditions: RequestConditions,
  ): Promise<Representation<ContentResponse[]>> {
    return this.nodes.list('content', { accountId: account.id, ...path }, conditions);
  }

  @Get(':contentId')
  @ApiNodeReadResponse({
    summary: 'Retrieve a content',
    description: 'A content with its complete style and its data.',
    response: ContentResponse,
    example: CONTENT_EXAMPLE,
    returns: 'The content.',
  })
  retrieve(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ContentPath,
    @Conditions() conditions: RequestConditions,
  ): Promise<Representation<ContentResponse>> {
    return this.nodes.retrieve('content', { accountId: account.id, ...path }, conditions);
  }

  @Put(':contentId')
  @ConditionalWrite()
  @ApiNodeChangedResponse({
    summary: 'Update a content',
    description:
      '`type` is required; other members left out keep their value, except `data`, which ' +
      'becomes `{}` when the type changes. A given `style` replaces the stored one whole (its ' +
      'members left out get their defaults); `position` moves the content.',
    response: ContentResponse,
    example: CONTENT_EXAMPLE,
    returns: 'The content.',
    problems: ['notFound', 'limitExceeded'],
  })
  update(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ContentPath,
    @Body() body: UpdateContentDto,
    @Conditions() conditions: RequestConditions,
  ): Promise<Representation<ContentResponse>> {
    return this.nodes.update('content', { accountId: account.id, ...path }, body, conditions);
  }

  @Delete(':contentId')
  @HttpCode(204)
  @ConditionalWrite()
  @ApiNodeDeletedResponse({
    summary: 'Delete a content',
    description: 'Deletes the content.',
    returns: 'Deleted; no body.',
  })
  delete(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ContentPath,
    @Conditions() conditions: RequestConditions,
  ): Promise<Representation<never>> {
    return this.nodes.delete('content', { accountId: account.id, ...path }, conditions);
  }

  @Post(':contentId/move')
  @HttpCode(200)
  @ConditionalWrite()
  @ApiNodeMovedResponse({
    optionalBody: MoveContentDto,
    summary: 'Move a content',
    description:
      'Moves the content to the column `columnId` of the project (its own when left out), at ' +
      '`position` (the end when left out; past the end: the end), in one transaction. It keeps ' +
      "its id; its tag becomes the move's revision; `Location` is its new path, and the old one " +
      "answers 404 from now on. `If-Match` is compared with the content's tag (of moves sent " +
      'with one tag, one goes through). A full column answers 409 ' +
      '`limit-exceeded`; a column that is not in the project answers 404.',
    response: ContentResponse,
    example: CONTENT_EXAMPLE,
    returns: 'The content at its new place, with its tag.',
    problems: ['notFound', 'limitExceeded'],
  })
  move(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ContentPath,
    @Body() body: MoveContentDto,
    @Conditions() conditions: RequestConditions,
    @Idempotency() idempotency: IdempotencyRequest | undefined,
  ): Promise<Representation<ContentResponse>> {
    return this.nodes.move(
      'content',
      { accountId: account.id, ...path },
      body,
      conditions,
      idempotency,
    );
  }

  @Post(':contentId/duplicate')
  @HttpCode(201)
  @ConditionalWrite()
  @ApiNodeCopiedResponse({
    optionalBody: DuplicateContentDto,
    summary: 'Duplicate a content',
    description:
      'Copies the content, with a new id, into the column `columnId` of the project (its own ' +
      'when left out), at `position`; without one, right after the original in its own column, ' +
      "else at the end. `If-Match` is compared with the original's tag.",
    response: ContentResponse,
    example: CONTENT_EXAMPLE,
    returns: 'The copy, with its new ids.',
    problems: ['notFound', 'limitExceeded'],
  })
  duplicate(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ContentPath,
    @Body() body: DuplicateContentDto,
    @Conditions() conditions: RequestConditions,
    @Idempotency() idempotency: IdempotencyRequest | undefined,
  ): Promise<Representation<ContentResponse>> {
    return this.nodes.duplicate(
      'content',
      { accountId: account.id, ...path },
      body,
      conditions,
      idempotency,
    );
  }
}
