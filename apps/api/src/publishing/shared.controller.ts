import { Controller, Get, Headers, Param, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { PROBLEM_TYPES } from '@layout/contracts';
import { ResourceNotFoundError } from '../common/errors';
import { Public } from '../common/decorators/public.decorator';
import { Conditions, type RequestConditions } from '../common/http/request-conditions';
import { ApiProblems } from '../common/openapi/decorators';
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
  @ApiResponse({
    status: 404,
    description:
      'No such link (unknown, revoked, expired, or its revision no longer kept): a small page ' +
      'for a browser, a problem otherwise.',
    content: {
      'text/html': { schema: { type: 'string' } },
      'application/problem+json': {
        schema: {
          $ref: '#/components/schemas/ProblemDetailsResponse',
        },
        example: {
          type: PROBLEM_TYPES.notFound,
          title: 'Not found',
          status: 404,
          detail: 'Share link not found',
          instance: '/shared/3q2-7wPpQ1m0ZzKxVnB4cD8eF6gH5iJ9kL2mN0oP7rS',
        },
      },
    },
  })
  @ApiProblems('rateLimited', 'databaseUnavailable', 'tooManyConcurrentRequests', 'shuttingDown')
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
