import { ChecksAssetNames } from '../../assets/asset-names.guard';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ContentResponse,
  CreateContentDto,
  DuplicateContentDto,
  MoveContentDto,
  UpdateContentDto,
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
import { CONTENT_EXAMPLE, NEW } from '../../common/openapi/examples';
import { ConditionalWrite } from '../../common/decorators/conditional-write.decorator';
import { Conditions, type RequestConditions } from '../../common/http/request-conditions';
import { Idempotency, type IdempotencyRequest } from '../../common/http/idempotency';
import { type Representation } from '../../common/http/representation';
import { CurrentAccount } from '../../common/decorators/current-account.decorator';
import { ColumnPath, ContentPath } from '../params/layout-paths.params';
import { ContentsService } from '../services/contents.service';

@ApiTags('contents')
@ApiProtected()
@Controller('projects/:projectId/blocks/:blockId/rows/:rowId/columns/:columnId/contents')
export class ContentsController {
  constructor(private readonly contents: ContentsService) {}

  @Post()
  @ChecksAssetNames()
  @HttpCode(201)
  @ApiIdempotencyKey()
  @ApiOperation({
    summary: 'Create a content',
    description:
      'Creates a content in the column, at the end of its contents or at `position`. `data` ' +
      'holds the members of its `type` (text: `html`, stored sanitised; image: `url`, `width`, ' +
      '`height`, `alt`; video: `url`, `provider`, inferred from the URL when left out; quote: ' +
      '`options`, `content`; empty: none). The style comes back with every default filled in.',
  })
  @ApiCreatedJsonResponse(ContentResponse, NEW.content, 'The new content.')
  @ApiProblems(...BODY_PROBLEMS, 'notFound', 'limitExceeded')
  create(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ColumnPath,
    @Body() body: CreateContentDto,
    @Idempotency() idempotency: IdempotencyRequest | undefined,
  ): Promise<Representation<ContentResponse>> {
    return this.contents.create({ accountId: account.id, ...path }, body, idempotency);
  }

  @Get()
  @ApiOperation({
    summary: 'List the contents of a column',
    description: "The column's contents in their stored order.",
  })
  @ApiTaggedRead([ContentResponse], [CONTENT_EXAMPLE], 'The contents.')
  @ApiProblems('notFound')
  list(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ColumnPath,
    @Conditions() conditions: RequestConditions,
  ): Promise<Representation<ContentResponse[]>> {
    return this.contents.list({ accountId: account.id, ...path }, conditions);
  }

  @Get(':contentId')
  @ApiOperation({
    summary: 'Retrieve a content',
    description: 'A content with its complete style and its data.',
  })
  @ApiTaggedRead(ContentResponse, CONTENT_EXAMPLE, 'The content.')
  @ApiProblems('notFound')
  retrieve(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ContentPath,
    @Conditions() conditions: RequestConditions,
  ): Promise<Representation<ContentResponse>> {
    return this.contents.retrieve({ accountId: account.id, ...path }, conditions);
  }

  @Put(':contentId')
  @ChecksAssetNames()
  @ConditionalWrite()
  @ApiOperation({
    summary: 'Update a content',
    description:
      '`type` is required; other members left out keep their value, except `data`, which ' +
      'becomes `{}` when the type changes. A given `style` replaces the stored one whole (its ' +
      'members left out get their defaults); `position` moves the content.',
  })
  @ApiChangedResponse(ContentResponse, CONTENT_EXAMPLE, 'The content.')
  @ApiProblems(...BODY_PROBLEMS, 'notFound', 'limitExceeded')
  update(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ContentPath,
    @Body() body: UpdateContentDto,
    @Conditions() conditions: RequestConditions,
  ): Promise<Representation<ContentResponse>> {
    return this.contents.update({ accountId: account.id, ...path }, body, conditions);
  }

  @Delete(':contentId')
  @HttpCode(204)
  @ConditionalWrite()
  @ApiOperation({ summary: 'Delete a content', description: 'Deletes the content.' })
  @ApiDeletedResponse('Deleted; no body.')
  @ApiProblems('notFound')
  delete(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ContentPath,
    @Conditions() conditions: RequestConditions,
  ): Promise<Representation<never>> {
    return this.contents.delete({ accountId: account.id, ...path }, conditions);
  }

  @Post(':contentId/move')
  @HttpCode(200)
  @ConditionalWrite()
  @ApiIdempotencyKey()
  @ApiOperation({
    summary: 'Move a content',
    description:
      'Moves the content to the column `columnId` of the project (its own when left out), at ' +
      '`position` (the end when left out; past the end: the end), in one transaction. It keeps ' +
      "its id; its tag becomes the move's revision; `Location` is its new path, and the old one " +
      "answers 404 from now on. `If-Match` is compared with the content's tag (of moves sent " +
      'with one tag, one goes through). A full column answers 409 ' +
      '`limit-exceeded`; a column that is not in the project answers 404.',
  })
  @ApiOptionalBody(MoveContentDto)
  @ApiMovedResponse(ContentResponse, CONTENT_EXAMPLE, 'The content at its new place, with its tag.')
  @ApiProblems(...BODY_PROBLEMS, 'notFound', 'limitExceeded')
  move(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ContentPath,
    @Body() body: MoveContentDto,
    @Conditions() conditions: RequestConditions,
    @Idempotency() idempotency: IdempotencyRequest | undefined,
  ): Promise<Representation<ContentResponse>> {
    return this.contents.move({ accountId: account.id, ...path }, body, conditions, idempotency);
  }

  @Post(':contentId/duplicate')
  @HttpCode(201)
  @ConditionalWrite()
  @ApiIdempotencyKey()
  @ApiOperation({
    summary: 'Duplicate a content',
    description:
      'Copies the content, with a new id, into the column `columnId` of the project (its own ' +
      'when left out), at `position`; without one, right after the original in its own column, ' +
      "else at the end. `If-Match` is compared with the original's tag.",
  })
  @ApiOptionalBody(DuplicateContentDto)
  @ApiCreatedJsonResponse(ContentResponse, CONTENT_EXAMPLE, 'The copy, with its new ids.')
  @ApiProblems(...BODY_PROBLEMS, 'notFound', 'limitExceeded')
  duplicate(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ContentPath,
    @Body() body: DuplicateContentDto,
    @Conditions() conditions: RequestConditions,
    @Idempotency() idempotency: IdempotencyRequest | undefined,
  ): Promise<Representation<ContentResponse>> {
    return this.contents.duplicate(
      { accountId: account.id, ...path },
      body,
      conditions,
      idempotency,
    );
  }
}
