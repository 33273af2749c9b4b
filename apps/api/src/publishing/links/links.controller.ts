import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CreateShareLinkDto, ShareLinkResponse } from '@layout/contracts';
import { type AuthenticatedAccount } from '../../common/auth/authenticated-account';
import { CurrentAccount } from '../../common/decorators/current-account.decorator';
import { Conditions, type RequestConditions } from '../../common/http/request-conditions';
import { type Representation } from '../../common/http/representation';
import {
  ApiCreatedJsonResponse,
  ApiNoContentResponse,
  ApiOptionalBody,
  ApiProblems,
  ApiProtected,
  ApiTaggedRead,
  BODY_PROBLEMS,
} from '../../openapi/decorators';
import { ProjectPath } from '../../layout/params/layout-paths.params';
import { SHARE_LINK_EXAMPLE } from './link-examples';
import { LinkPath } from './link-path.params';
import { LinksService } from './links.service';

@ApiTags('publishing')
@ApiProtected()
@Controller('projects/:projectId/links')
export class LinksController {
  constructor(private readonly links: LinksService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create a share link',
    description:
      'A link that shows one revision of the project (`revision`, one of its kept revisions; ' +
      'left out: the current one) to anyone who has it, without an account, until it is ' +
      'revoked or `expiresAt` passes, and while that revision is kept. `url` ' +
      '(`/shared/<token>`, a token of 256 random bits) is in this answer only: the service ' +
      'keeps a hash of it. A project has at most 100 live links (409 ' +
      '`/problems/limit-exceeded` beyond). Editors and the owner create links.',
  })
  @ApiOptionalBody(CreateShareLinkDto)
  @ApiCreatedJsonResponse(ShareLinkResponse, SHARE_LINK_EXAMPLE, 'The new link, with its URL.', {
    tagged: false,
  })
  @ApiProblems(...BODY_PROBLEMS, 'notFound', 'limitExceeded')
  create(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ProjectPath,
    @Body() body: CreateShareLinkDto,
  ): Promise<Representation<ShareLinkResponse>> {
    return this.links.create({ accountId: account.id, ...path }, body);
  }

  @Get()
  @ApiOperation({
    summary: "List a project's share links",
    description:
      'The live links (neither revoked nor expired), newest first, each with `views` (its ' +
      'successful opens, on every instance) and `lastViewedAt`; `url` is `null` (the token is ' +
      'shown only when the link is created). Viewers, editors and the owner list links.',
  })
  @ApiTaggedRead([ShareLinkResponse], [{ ...SHARE_LINK_EXAMPLE, url: null }], 'The live links.')
  @ApiProblems('notFound')
  list(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ProjectPath,
    @Conditions() conditions: RequestConditions,
  ): Promise<Representation<ShareLinkResponse[]>> {
    return this.links.list({ accountId: account.id, ...path }, conditions);
  }

  @Delete(':linkId')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Revoke a share link',
    description:
      'The link stops working at once on every instance (its next open answers 404). Editors ' +
      'and the owner revoke links.',
  })
  @ApiNoContentResponse('Revoked; no body.')
  @ApiProblems('notFound')
  async revoke(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: LinkPath,
  ): Promise<void> {
    const { linkId, ...project } = path;
    await this.links.revoke({ accountId: account.id, ...project }, linkId);
  }
}
