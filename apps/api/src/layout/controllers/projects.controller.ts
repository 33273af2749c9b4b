import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Put,
  Query,
  Res,
} from '@nestjs/common';
import {
  ApiOperation,
  ApiQuery,
  ApiResponse,
  ApiTags,
  getSchemaPath,
  type HeaderObject,
} from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import {
  CreateProjectDto,
  DuplicateProjectDto,
  ListProjectsQueryDto,
  RetrieveProjectQueryDto,
  PAGE_CURSOR_DETAIL,
  PAGE_CURSOR_MAX_LENGTH,
  ProjectResponse,
  PROJECTS_PAGE_SIZE_MAX,
  PROJECTS_PAGE_SIZE_MIN,
  ProjectSummaryResponse,
  UpdateProjectDto,
} from '@layout/contracts';
import { type AuthenticatedAccount } from '../../common/auth/authenticated-account';
import { ConditionalWrite } from './conditional-write.decorator';
import { CurrentAccount } from '../../common/decorators/current-account.decorator';
import { Conditions, type RequestConditions } from '../../common/http/request-conditions';
import { Idempotency, type IdempotencyRequest } from '../../common/http/idempotency';
import { type Representation } from '../../common/http/representation';
import {
  ApiChangedResponse,
  ApiCreatedJsonResponse,
  ApiDeletedResponse,
  ApiIdempotencyKey,
  ApiOptionalBody,
  ApiProblems,
  ApiProtected,
  ApiTaggedRead,
  BODY_PROBLEMS,
} from '../../openapi/decorators';
import { NEW, PROJECT_EXAMPLE, PROJECT_SUMMARY_EXAMPLE } from './layout.examples';
import { ProjectPath } from '../params/layout-paths.params';
import { ProjectsService } from '../services/projects.service';

/** The `Link` header (RFC 8288) of a page that has a next one. */
export function nextPageLink(limit: number, cursor: string): string {
  return `</projects?limit=${limit}&cursor=${cursor}>; rel="next"`;
}

const LIST_ETAG: HeaderObject = {
  description:
    'Strong entity tag of this page: send it in `If-None-Match` to read the page only when it ' +
    'changed.',
  required: true,
  schema: { type: 'string', example: '"p6f1ed002ab5595859014ebf0951522d9"' },
};

const NEXT_PAGE_LINK: HeaderObject = {
  description:
    'RFC 8288 link to the next page, present when more projects follow: ' +
    '`</projects?limit=50&cursor=…>; rel="next"` (a relative URI; send the cursor as it is).',
  required: false,
  schema: {
    type: 'string',
    pattern: '^</projects\\?limit=\\d+&cursor=[A-Za-z0-9_-]+>; rel="next"$',
    example:
      '</projects?limit=50&cursor=eyJ0IjoiMjAyNi0xMS0yMlQxMDoxNTozMC4xMjMwMDBaIn0>; rel="next"',
  },
};

@ApiTags('projects')
@ApiProtected()
@Controller('projects')
export class ProjectsController {
  constructor(private readonly projects: ProjectsService) {}

  @Post()
  @HttpCode(201)
  @ApiIdempotencyKey()
  @ApiOperation({
    summary: 'Create a project',
    description:
      'Creates a project owned by the calling account, at revision 1, with the blocks the body ' +
      'gives and everything in them, in the shape reads answer: the members a read adds ' +
      '(`_id`, `revision`, times) are ignored, so a read or an export (`?format=portable`) ' +
      'posted here makes a copy. Every rule holds for every node (row widths, limits, at most ' +
      '20 000 nodes, 8 MiB); the first one broken answers its problem with `pointer` (or ' +
      '`errors[].pointer`) into the body, and nothing is created. An account holds at most ' +
      '10 000 projects (409 `/problems/limit-exceeded` beyond).',
  })
  @ApiCreatedJsonResponse(ProjectResponse, NEW.project, 'The new project.')
  @ApiProblems(...BODY_PROBLEMS, 'rowWidthExceeded', 'limitExceeded')
  create(
    @CurrentAccount() account: AuthenticatedAccount,
    @Body() body: CreateProjectDto,
    @Idempotency() idempotency: IdempotencyRequest | undefined,
  ): Promise<Representation<ProjectResponse>> {
    return this.projects.create(account.id, body, idempotency);
  }

  @Get()
  @ApiOperation({
    summary: "List the calling account's projects",
    description:
      "The calling account's projects, oldest first (ties by id), without their blocks " +
      '(retrieve a project for its whole tree): all of them, or with `limit` (1 to 100) a page ' +
      'at a time. When more follow, `Link: </projects?limit=…&cursor=…>; rel="next"` names ' +
      'the next page; the last page has no `Link`. A walk from the first page to the last sees ' +
      'every project that existed throughout it exactly once, also when projects are created ' +
      "or deleted meanwhile. A page's `ETag` changes whenever a project on it is changed, " +
      'created or deleted there, or whether a next page follows changes. An unknown query ' +
      'parameter, a `limit` out of range or a cursor this list did not give answers 400.',
  })
  @ApiQuery({
    name: 'limit',
    required: false,
    description:
      'How many projects a page holds at most: 1 to 100. Left out: every project of the ' +
      'account, in one answer.',
    schema: {
      type: 'integer',
      minimum: PROJECTS_PAGE_SIZE_MIN,
      maximum: PROJECTS_PAGE_SIZE_MAX,
      example: 50,
    },
  })
  @ApiQuery({
    name: 'cursor',
    required: false,
    description:
      "Where the page starts: the `cursor` of the previous page's `Link`, sent as it came " +
      '(opaque). Left out: the first page. A cursor is valid only for the account it was given ' +
      'to.',
    schema: { type: 'string', pattern: '^[A-Za-z0-9_-]+$', maxLength: PAGE_CURSOR_MAX_LENGTH },
  })
  // The 200 of ApiTaggedRead (below), with the page's Link; its description stays.
  @ApiResponse({
    status: 200,
    description: '',
    type: [ProjectSummaryResponse],
    example: [PROJECT_SUMMARY_EXAMPLE],
    headers: { ETag: LIST_ETAG, Link: NEXT_PAGE_LINK },
  })
  @ApiTaggedRead(
    [ProjectSummaryResponse],
    [PROJECT_SUMMARY_EXAMPLE],
    'A page of the projects, in order.',
  )
  @ApiProblems('validation', {
    validation: {
      when:
        'A query parameter is unknown, `limit` is not an integer from 1 to 100, or `cursor` ' +
        "is not one this list gave the calling account (a previous page's `Link`); `errors` " +
        'names the parameter (`/limit`, `/cursor`, `/<name>`).',
      detail: `cursor ${PAGE_CURSOR_DETAIL}`,
    },
  })
  async list(
    @CurrentAccount() account: AuthenticatedAccount,
    @Query() query: ListProjectsQueryDto,
    @Conditions() conditions: RequestConditions,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Representation<ProjectSummaryResponse[]>> {
    const page = await this.projects.list(account.id, query, conditions);
    if (page.next !== undefined) {
      void reply.header('link', nextPageLink(page.limit, page.next));
    }
    return page.representation;
  }

  @Get(':projectId')
  @ApiOperation({
    summary: 'Retrieve a project',
    description:
      'The project with its whole tree: blocks, rows, columns and contents, each list in order. ' +
      'Its `ETag` changes with every revision. With `format=portable`, the export: the tree ' +
      'without the members a read adds (`_id`, `revision`, times), which `POST /projects` ' +
      'takes as it is to make a copy (here or on another deployment), with its own tag.',
  })
  @ApiTaggedRead(
    {
      anyOf: [{ $ref: getSchemaPath(ProjectResponse) }, { $ref: getSchemaPath(CreateProjectDto) }],
    },
    PROJECT_EXAMPLE,
    'The project with its whole tree; with `format=portable`, its export, which is the body of ' +
      'a `POST /projects`.',
  )
  @ApiProblems('notFound')
  retrieve(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ProjectPath,
    @Query() query: RetrieveProjectQueryDto,
    @Conditions() conditions: RequestConditions,
  ): Promise<Representation<ProjectResponse>> {
    return this.projects.retrieve({ accountId: account.id, ...path }, conditions, query.format);
  }

  @Put(':projectId')
  @ConditionalWrite()
  @ApiOperation({
    summary: 'Update a project',
    description: 'Changes the title; a title left out keeps its value.',
  })
  @ApiChangedResponse(ProjectResponse, PROJECT_EXAMPLE, 'The project with its whole tree.')
  @ApiProblems(...BODY_PROBLEMS, 'notFound', 'limitExceeded')
  update(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ProjectPath,
    @Body() body: UpdateProjectDto,
    @Conditions() conditions: RequestConditions,
  ): Promise<Representation<ProjectResponse>> {
    return this.projects.update({ accountId: account.id, ...path }, body, conditions);
  }

  @Delete(':projectId')
  @HttpCode(204)
  @ConditionalWrite()
  @ApiOperation({
    summary: 'Delete a project',
    description: 'Deletes the project with its whole tree.',
  })
  @ApiDeletedResponse('Deleted; no body.')
  @ApiProblems('notFound')
  delete(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ProjectPath,
    @Conditions() conditions: RequestConditions,
  ): Promise<Representation<never>> {
    return this.projects.delete({ accountId: account.id, ...path }, conditions);
  }

  @Post(':projectId/duplicate')
  @HttpCode(201)
  @ConditionalWrite()
  @ApiIdempotencyKey()
  @ApiOperation({
    summary: 'Duplicate a project',
    description:
      'A new project of yours with a copy of the whole tree (new ids everywhere), at revision ' +
      '1, titled `title` or the original\'s title followed by " (copy)". It counts against ' +
      'your projects (10 000) and the nodes one copy may create (20 000). `If-Match` is ' +
      "compared with the original's tag; the original does not change.",
  })
  @ApiOptionalBody(DuplicateProjectDto)
  @ApiCreatedJsonResponse(ProjectResponse, PROJECT_EXAMPLE, 'The copy, with its whole tree.')
  @ApiProblems(...BODY_PROBLEMS, 'notFound', 'limitExceeded')
  duplicate(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ProjectPath,
    @Body() body: DuplicateProjectDto,
    @Conditions() conditions: RequestConditions,
    @Idempotency() idempotency: IdempotencyRequest | undefined,
  ): Promise<Representation<ProjectResponse>> {
    return this.projects.duplicate(
      { accountId: account.id, ...path },
      body,
      conditions,
      idempotency,
    );
  }
}
