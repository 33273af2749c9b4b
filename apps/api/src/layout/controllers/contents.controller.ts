import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { type ContentResponse, CreateContentDto, UpdateContentDto } from '@layout/contracts';
import { type AuthenticatedAccount } from '../../accounts/authenticated-account';
import { CreatesResource } from '../../common/decorators/creates-resource.decorator';
import { CurrentAccount } from '../../common/decorators/current-account.decorator';
import { presentContent } from '../layout.presenter';
import { ColumnPath, ContentPath } from '../params/layout-paths.params';
import { ContentsService } from '../services/contents.service';

@ApiTags('contents')
@ApiBearerAuth()
@Controller('projects/:projectId/blocks/:blockId/rows/:rowId/columns/:columnId/contents')
export class ContentsController {
  constructor(private readonly contents: ContentsService) {}

  /** Create a content in a column. Its style comes back with every default filled in. */
  @Post()
  @CreatesResource()
  async create(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ColumnPath,
    @Body() body: CreateContentDto,
  ): Promise<ContentResponse> {
    return presentContent(await this.contents.create({ accountId: account.id, ...path }, body));
  }

  /** List the contents of a column, in order. */
  @Get()
  async list(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ColumnPath,
  ): Promise<ContentResponse[]> {
    return (await this.contents.list({ accountId: account.id, ...path })).map(presentContent);
  }

  /** Retrieve a content. */
  @Get(':contentId')
  async retrieve(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ContentPath,
  ): Promise<ContentResponse> {
    return presentContent(await this.contents.retrieve({ accountId: account.id, ...path }));
  }

  /**
   * Update a content. `type` is required; other members left out keep their value, except
   * `data`, which becomes `{}` when the type changes.
   */
  @Put(':contentId')
  async update(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ContentPath,
    @Body() body: UpdateContentDto,
  ): Promise<ContentResponse> {
    return presentContent(await this.contents.update({ accountId: account.id, ...path }, body));
  }

  /** Delete a content. */
  @Delete(':contentId')
  @HttpCode(204)
  async delete(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ContentPath,
  ): Promise<void> {
    await this.contents.delete({ accountId: account.id, ...path });
  }
}
