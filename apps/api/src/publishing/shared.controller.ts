import { Controller, Get, Headers, Param, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, type ApiResponseOptions, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { ResourceNotFoundError } from '../common/errors';
import { Public } from '../common/decorators/public.decorator';
import { Conditions, type RequestConditions } from '../common/http/request-conditions';
import { ApiProblems } from '../openapi/decorators';
import { problemResponse } from '../openapi/problems';
import { HTML_TYPE, sendHtml } from './html-page';
import { ApiHtmlPage } from './html-page.openapi';
import { LinksService } from './links/links.service';
import { SharedPath } from './links/link-path.params';
import { NOT_FOUND_PAGE, prefersHtml } from './not-found-page';

/** What a shared page's answers carry besides the page's own headers. */
const SHARED_HEADERS = {
  'cache-control': 'private, max-age=60',
  'referrer-policy': 'no-referrer',
};

/** 404: a problem, or a small page for a browser. */
const NOT_FOUND_PROBLEM = problemResponse(404, ['notFound'], {
  notFound: {
    when:
      'No such link (unknown, revoked, expired, or its revision no longer kept): a small HTML ' +
      'page when the request prefers `text/html` (a browser), this problem otherwise.',
    detail: 'Share link not found',
  },
});
const NOT_FOUND_RESPONSE = {
  ...NOT_FOUND_PROBLEM,
  content: { ...NOT_FOUND_PROBLEM.content, 'text/html': { schema: { type: 'string' } } },
} as ApiResponseOptions;

@ApiTags('publishing')
@Controller('shared')
export class SharedController {
  constructor(private readonly links: LinksService) {}

  @Get(':token')
  @Public()
  @ApiOperation({
    summary: 'Open a share link',
    description:
      'The revision the link shows, rendered as a page (as `GET /projects/<p>/revisions/<n>/' +
      'render` renders it), to anyone, without a token. Every successful open counts in the ' +
      "link's `views`. An unknown, revoked or expired link, or one whose revision is no longer " +
      'kept, answers 404: a small HTML page when the request prefers `text/html` (a browser), ' +
      'problem+json otherwise. Opens are rate-limited per client address.',
  })
  @ApiHtmlPage('The shared revision, as a page.', {
    'Cache-Control': {
      description: 'A browser may keep the page a minute; no shared cache keeps it.',
      required: true,
      schema: { type: 'string', enum: [SHARED_HEADERS['cache-control']] },
    },
  })
  @ApiResponse(NOT_FOUND_RESPONSE)
  @ApiProblems(
    'validation',
    'rateLimited',
    'databaseUnavailable',
    'tooManyConcurrentRequests',
    'shuttingDown',
  )
  async open(
    @Param() path: SharedPath,
    @Conditions() conditions: RequestConditions,
    @Headers('accept') accept: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const page = await this.links.open(path.token, conditions);
    if (page !== undefined) {
      sendHtml(reply, page, SHARED_HEADERS);
      return;
    }
    if (!prefersHtml(accept)) throw new ResourceNotFoundError('Share link');
    void reply.code(404).type(HTML_TYPE).send(NOT_FOUND_PAGE);
  }
}
