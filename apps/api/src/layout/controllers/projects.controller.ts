import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  CreateProjectDto,
  ProjectResponse,
  ProjectSummaryResponse,
  UpdateProjectDto,
} from '@layout/contracts';
import { type AuthenticatedAccount } from '../../accounts/authenticated-account';
import {
  ApiCreatedJsonResponse,
  ApiDeletedResponse,
  ApiOkJsonResponse,
  ApiProblems,
  ApiProtected,
  BODY_PROBLEMS,
} from '../../bootstrap/openapi/decorators';
import { NEW, PROJECT_EXAMPLE, PROJECT_SUMMARY_EXAMPLE } from '../../bootstrap/openapi/examples';
import { CreatesResource } from '../../common/decorators/creates-resource.decorator';
import { type SerializedJson } from '../../common/json/serialized-json';
import { CurrentAccount } from '../../common/decorators/current-account.decorator';
import { presentProject, presentProjectSummary } from '../layout.presenter';
import { ProjectPath } from '../params/layout-paths.params';
import { ProjectsService } from '../services/projects.service';

@ApiTags('projects')
@ApiProtected()
@Controller('projects')
export class ProjectsController {
  constructor(private readonly projects: ProjectsService) {}

  @Post()
  @CreatesResource()
  @ApiOperation({
    summary: 'Create a project',
    description: 'Creates a project owned by the calling account, without blocks.',
  })
  @ApiCreatedJsonResponse(ProjectResponse, NEW.project, 'The new project.')
  @ApiProblems(...BODY_PROBLEMS)
  async create(
    @CurrentAccount() account: AuthenticatedAccount,
    @Body() body: CreateProjectDto,
  ): Promise<ProjectResponse> {
    return presentProject(await this.projects.create(account.id, body));
  }

  @Get()
  @ApiOperation({
    summary: "List the calling account's projects",
    description:
      "The calling account's projects, oldest first, without their blocks (retrieve a project " +
      'for its whole tree).',
  })
  @ApiOkJsonResponse([ProjectSummaryResponse], [PROJECT_SUMMARY_EXAMPLE], 'The projects.')
  async list(@CurrentAccount() account: AuthenticatedAccount): Promise<ProjectSummaryResponse[]> {
    return (await this.projects.list(account.id)).map(presentProjectSummary);
  }

  @Get(':projectId')
  @ApiOperation({
    summary: 'Retrieve a project',
    description:
      'A project with its whole tree: blocks, their rows, columns and contents, each list in ' +
      'its stored order.',
  })
  @ApiOkJsonResponse(ProjectResponse, PROJECT_EXAMPLE, 'The project with its whole tree.')
  @ApiProblems('notFound')
  async retrieve(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ProjectPath,
  ): Promise<SerializedJson<ProjectResponse>> {
    return this.projects.retrieve({ accountId: account.id, ...path });
  }

  @Put(':projectId')
  @ApiOperation({
    summary: 'Update a project',
    description: "Changes the project's title; a title left out keeps its value.",
  })
  @ApiOkJsonResponse(ProjectResponse, PROJECT_EXAMPLE, 'The project with its whole tree.')
  @ApiProblems(...BODY_PROBLEMS, 'notFound')
  async update(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ProjectPath,
    @Body() body: UpdateProjectDto,
  ): Promise<SerializedJson<ProjectResponse>> {
    return this.projects.update({ accountId: account.id, ...path }, body);
  }

  @Delete(':projectId')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a project',
    description: 'Deletes the project with its whole tree.',
  })
  @ApiDeletedResponse('Deleted; no body.')
  @ApiProblems('notFound')
  async delete(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ProjectPath,
  ): Promise<void> {
    await this.projects.delete({ accountId: account.id, ...path });
  }
}
