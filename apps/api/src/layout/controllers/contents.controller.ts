import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ContentResponse, CreateContentDto, UpdateContentDto } from '@layout/contracts';
import { type AuthenticatedAccount } from '../../accounts/authenticated-account';
import {
  ApiCreatedJsonResponse,
  ApiDeletedResponse,
  ApiOkJsonResponse,
  ApiProblems,
  ApiProtected,
  BODY_PROBLEMS,
} from '../../bootstrap/openapi/decorators';
import { CONTENT_EXAMPLE, NEW } from '../../bootstrap/openapi/examples';
import { CreatesResource } from '../../common/decorators/creates-resource.decorator';
import { type SerializedJson } from '../../common/json/serialized-json';
import { CurrentAccount } from '../../common/decorators/current-account.decorator';
import { presentContent } from '../layout.presenter';
import { ColumnPath, ContentPath } from '../params/layout-paths.params';
import { ContentsService } from '../services/contents.service';

@ApiTags('contents')
@ApiProtected()
@Controller('projects/:projectId/blocks/:blockId/rows/:rowId/columns/:columnId/contents')
export class ContentsController {
  constructor(private readonly contents: ContentsService) {}

  @Post()
  @CreatesResource()
  @ApiOperation({
    summary: 'Create a content',
    description:
      'Creates a content in the column, at the end of its contents or at `position`. `data` ' +
      'holds the members of its `type` (text: `html`, stored sanitised; image: `url`, `width`, ' +
      '`height`, `alt`; video: `url`, `provider`, inferred from the URL when left out; quote: ' +
      '`options`, `content`; empty: none). The style comes back with every default filled in.',
  })
  @ApiCreatedJsonResponse(ContentResponse, NEW.content, 'The new content.')
  @ApiProblems(...BODY_PROBLEMS, 'notFound')
  async create(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ColumnPath,
    @Body() body: CreateContentDto,
  ): Promise<ContentResponse> {
    return presentContent(await this.contents.create({ accountId: account.id, ...path }, body));
  }

  @Get()
  @ApiOperation({
    summary: 'List the contents of a column',
    description: "The column's contents in their stored order.",
  })
  @ApiOkJsonResponse([ContentResponse], [CONTENT_EXAMPLE], 'The contents.')
  @ApiProblems('notFound')
  async list(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ColumnPath,
  ): Promise<SerializedJson<ContentResponse[]>> {
    return this.contents.list({ accountId: account.id, ...path });
  }

  @Get(':contentId')
  @ApiOperation({
    summary: 'Retrieve a content',
    description: 'A content with its complete style and its data.',
  })
  @ApiOkJsonResponse(ContentResponse, CONTENT_EXAMPLE, 'The content.')
  @ApiProblems('notFound')
  async retrieve(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ContentPath,
  ): Promise<SerializedJson<ContentResponse>> {
    return this.contents.retrieve({ accountId: account.id, ...path });
  }

  @Put(':contentId')
  @ApiOperation({
    summary: 'Update a content',
    description:
      '`type` is required; other members left out keep their value, except `data`, which ' +
      'becomes `{}` when the type changes. A given `style` replaces the stored one whole (its ' +
      'members left out get their defaults); `position` moves the content.',
  })
  @ApiOkJsonResponse(ContentResponse, CONTENT_EXAMPLE, 'The content.')
  @ApiProblems(...BODY_PROBLEMS, 'notFound')
  async update(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ContentPath,
    @Body() body: UpdateContentDto,
  ): Promise<ContentResponse> {
    return presentContent(await this.contents.update({ accountId: account.id, ...path }, body));
  }

  @Delete(':contentId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a content', description: 'Deletes the content.' })
  @ApiDeletedResponse('Deleted; no body.')
  @ApiProblems('notFound')
  async delete(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ContentPath,
  ): Promise<void> {
    await this.contents.delete({ accountId: account.id, ...path });
  }
}
