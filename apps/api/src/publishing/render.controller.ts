import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type AuthenticatedAccount } from '../common/auth/authenticated-account';
import { CurrentAccount } from '../common/decorators/current-account.decorator';
import { Conditions, type RequestConditions } from '../common/http/request-conditions';
import { ApiProblems, ApiProtected } from '../openapi/decorators';
import { ProjectPath } from '../layout/params/layout-paths.params';
import { RevisionPath } from '../layout/params/revision-path.params';
import { sendHtml } from './html-page';
import { ApiHtmlPage } from './html-page.openapi';
import { RenderedPages } from './rendered-pages';

const PAGE =
  'A complete HTML5 document: the title, each block a section, each row a 12-column grid ' +
  '(columns stack below 600 CSS pixels), each content by its type (text, image, video, a ' +
  'quote as a table with its total), every style applied. No script, and a ' +
  '`Content-Security-Policy` that allows none; every text is escaped where it is not ' +
  'sanitised HTML. Compressed when asked, like the JSON reads.';

@ApiTags('publishing')
@ApiProtected()
@Controller('projects/:projectId')
export class RenderController {
  constructor(private readonly pages: RenderedPages) {}

  @Get('render')
  @ApiOperation({
    summary: 'Render a project as a web page',
    description: `${PAGE} Its \`ETag\` is the project's.`,
  })
  @ApiHtmlPage('The project as a page.')
  @ApiProblems('notFound')
  async render(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ProjectPath,
    @Conditions() conditions: RequestConditions,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    sendHtml(reply, await this.pages.current({ accountId: account.id, ...path }, conditions));
  }

  @Get('revisions/:revision/render')
  @ApiOperation({
    summary: 'Render a past state of a project as a web page',
    description:
      `${PAGE} The project as it was right after revision \`revision\`, with that revision's ` +
      '`ETag`; a revision that is not kept answers 404.',
  })
  @ApiHtmlPage('The project as it was, as a page.')
  @ApiProblems('notFound')
  async renderPast(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: RevisionPath,
    @Conditions() conditions: RequestConditions,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const { projectId, revision } = path;
    const page = await this.pages.past(
      { accountId: account.id, projectId },
      Number(revision),
      conditions,
    );
    sendHtml(reply, page);
  }
}
