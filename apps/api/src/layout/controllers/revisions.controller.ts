import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import {
  ListRevisionsQueryDto,
  ProjectResponse,
  REVISIONS_PAGE_SIZE_DEFAULT,
  REVISIONS_PAGE_SIZE_MAX,
  REVISIONS_PAGE_SIZE_MIN,
  RestoreRevisionDto,
  RevisionResponse,
} from '@layout/contracts';
import { type AuthenticatedAccount } from '../../common/auth/authenticated-account';
import { ConditionalWrite } from './conditional-write.decorator';
import { CurrentAccount } from '../../common/decorators/current-account.decorator';
import { Conditions, type RequestConditions } from '../../common/http/request-conditions';
import { type Representation } from '../../common/http/representation';
import {
  ApiChangedResponse,
  ApiOptionalBody,
  ApiProblems,
  ApiProtected,
  ApiTaggedRead,
  BODY_PROBLEMS,
} from '../../openapi/decorators';
import { PROJECT_EXAMPLE, REVISION_EXAMPLES } from './layout.examples';
import { ProjectPath } from '../params/layout-paths.params';
import { RevisionPath } from '../params/revision-path.params';
import { HistoryService } from '../services/history.service';

/** The `Link` header (RFC 8288) of a page of revisions that has a next one. */
export function nextRevisionsLink(projectId: string, limit: number, before: number): string {
  return `</projects/${projectId}/revisions?before=${before}&limit=${limit}>; rel="next"`;
}

@ApiTags('history')
@ApiProtected()
@Controller('projects/:projectId/revisions')
export class RevisionsController {
  constructor(private readonly history: HistoryService) {}

  @Get()
  @ApiOperation({
    summary: "List a project's revisions",
    description:
      'The kept revisions of the project (the newest `HISTORY_REVISIONS`, 1 000 by default), ' +
      'newest first, a page at a time: at most `limit` (1 to 100, default 50), older than ' +
      '`before`. Each names what its request did (`operation`, such as `content.update`, ' +
      '`row.move`, `project.restore`) and the path of the node it addressed. When more follow, ' +
      '`Link: <…?before=…&limit=…>; rel="next"` names the next page.',
  })
  @ApiQuery({
    name: 'limit',
    required: false,
    description: 'How many revisions a page holds at most: 1 to 100, 50 when left out.',
    schema: {
      type: 'integer',
      minimum: REVISIONS_PAGE_SIZE_MIN,
      maximum: REVISIONS_PAGE_SIZE_MAX,
      default: REVISIONS_PAGE_SIZE_DEFAULT,
    },
  })
  @ApiQuery({
    name: 'before',
    required: false,
    description: 'Only revisions older than this one: the last `revision` of the previous page.',
    schema: { type: 'integer', minimum: 1 },
  })
  // The 200 of ApiTaggedRead (below), with the page's Link; its description stays.
  @ApiResponse({
    status: 200,
    description: '',
    type: [RevisionResponse],
    example: REVISION_EXAMPLES,
    headers: {
      ETag: {
        description:
          'Strong entity tag of this page: it changes when the revisions it shows or its `Link` ' +
          'do (a new revision, on the first page; pruning, on the last), not otherwise.',
        required: true,
        schema: { type: 'string', example: '"h8-7+"' },
      },
      Link: {
        description: 'RFC 8288 link to the next page, present when older revisions follow.',
        required: false,
        schema: { type: 'string' },
      },
    },
  })
  @ApiTaggedRead([RevisionResponse], REVISION_EXAMPLES, 'A page of revisions, newest first.')
  @ApiProblems('validation', 'notFound')
  async list(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ProjectPath,
    @Query() query: ListRevisionsQueryDto,
    @Conditions() conditions: RequestConditions,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Representation<RevisionResponse[]>> {
    const page = await this.history.list({ accountId: account.id, ...path }, query, conditions);
    if (page.nextBefore !== undefined) {
      void reply.header('link', nextRevisionsLink(path.projectId, page.limit, page.nextBefore));
    }
    return page.representation;
  }

  @Get(':revision')
  @ApiOperation({
    summary: 'Read a past state of a project',
    description:
      'The whole project exactly as it was right after revision `revision`: ids, order, ' +
      'values, `createdAt`, `updatedAt` and `revision` as they were then. Its `ETag` is the ' +
      "one the project's own read had at that revision. A revision that is not kept answers 404.",
  })
  @ApiTaggedRead(ProjectResponse, PROJECT_EXAMPLE, 'The project as it was.')
  @ApiProblems('notFound')
  pastState(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: RevisionPath,
    @Conditions() conditions: RequestConditions,
  ): Promise<Representation<ProjectResponse>> {
    const { projectId, revision } = path;
    return this.history.pastState(
      { accountId: account.id, projectId },
      Number(revision),
      conditions,
    );
  }

  @Post(':revision/restore')
  @HttpCode(200)
  @ConditionalWrite()
  @ApiOperation({
    summary: 'Restore a past state of a project (undo)',
    description:
      'Brings the whole project back to how it was right after revision `revision`, as a new ' +
      'revision (`project.restore`): ids, order, values and `createdAt` as they were; ' +
      '`revision` and `updatedAt` move on. Undo is a restore of the current revision − 1 sent ' +
      "with `If-Match` set to the project's `ETag`: if someone else changed the project " +
      'meanwhile, it answers 412 and changes nothing. Only what differs is written, and only ' +
      'the tags of what differs change. A revision that is not kept answers 404.',
  })
  @ApiOptionalBody(RestoreRevisionDto)
  @ApiChangedResponse(ProjectResponse, PROJECT_EXAMPLE, 'The project, restored.')
  @ApiProblems(...BODY_PROBLEMS, 'notFound', 'limitExceeded')
  restore(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: RevisionPath,
    // Validated (none, or `{}`), then nothing to read: the path and If-Match say it all.
    @Body() _body: RestoreRevisionDto,
    @Conditions() conditions: RequestConditions,
  ): Promise<Representation<ProjectResponse>> {
    const { projectId, revision } = path;
    return this.history.restore({ accountId: account.id, projectId }, Number(revision), conditions);
  }
}
