import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  CreateProjectDto,
  ProjectResponse,
  ProjectSummaryResponse,
  UpdateProjectDto,
} from '@layout/contracts';
import { type AuthenticatedAccount } from '../../common/auth/authenticated-account';
import { ConditionalWrite } from '../../common/decorators/conditional-write.decorator';
import { CurrentAccount } from '../../common/decorators/current-account.decorator';
import { Conditions, type RequestConditions } from '../../common/http/request-conditions';
import { type Representation } from '../../common/http/representation';
import {
  ApiChangedResponse,
  ApiCreatedJsonResponse,
  ApiDeletedResponse,
  ApiProblems,
  ApiProtected,
  ApiTaggedRead,
  BODY_PROBLEMS,
} from '../../common/openapi/decorators';
import { NEW, PROJECT_EXAMPLE, PROJECT_SUMMARY_EXAMPLE } from '../../common/openapi/examples';
import { ProjectPath } from '../params/layout-paths.params';
import { ProjectsService } from '../services/projects.service';

@ApiTags('projects')
@ApiProtected()
@Controller('projects')
export class ProjectsController {
  constructor(private readonly projects: ProjectsService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create a project',
    description:
      'Creates a project owned by the calling account, without blocks, at revision 1. An ' +
      'account holds at most 10 000 projects (409 `/problems/limit-exceeded` beyond).',
  })
  @ApiCreatedJsonResponse(ProjectResponse, NEW.project, 'The new project.')
  @ApiProblems(...BODY_PROBLEMS, 'limitExceeded')
  create(
    @CurrentAccount() account: AuthenticatedAccount,
    @Body() body: CreateProjectDto,
  ): Promise<Representation<ProjectResponse>> {
    return this.projects.create(account.id, body);
  }

  @Get()
  @ApiOperation({
    summary: "List the calling account's projects",
    description:
      "The calling account's projects, oldest first, without their blocks (retrieve a project " +
      'for its whole tree). Its `ETag` changes whenever a project is created, changed or deleted.',
  })
  @ApiTaggedRead([ProjectSummaryResponse], [PROJECT_SUMMARY_EXAMPLE], 'The projects.')
  list(
    @CurrentAccount() account: AuthenticatedAccount,
    @Conditions() conditions: RequestConditions,
  ): Promise<Representation<ProjectSummaryResponse[]>> {
    return this.projects.list(account.id, conditions);
  }

  @Get(':projectId')
  @ApiOperation({
    summary: 'Retrieve a project',
    description:
      'The project with its whole tree: blocks, rows, columns and contents, each list in order. ' +
      'Its `ETag` changes with every revision.',
  })
  @ApiTaggedRead(ProjectResponse, PROJECT_EXAMPLE, 'The project with its whole tree.')
  @ApiProblems('notFound')
  retrieve(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ProjectPath,
    @Conditions() conditions: RequestConditions,
  ): Promise<Representation<ProjectResponse>> {
    return this.projects.retrieve({ accountId: account.id, ...path }, conditions);
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
}
