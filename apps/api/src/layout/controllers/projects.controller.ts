import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  CreateProjectDto,
  type ProjectResponse,
  type ProjectSummaryResponse,
  UpdateProjectDto,
} from '@layout/contracts';
import { type AuthenticatedAccount } from '../../accounts/authenticated-account';
import { CreatesResource } from '../../common/decorators/creates-resource.decorator';
import { CurrentAccount } from '../../common/decorators/current-account.decorator';
import { presentProject, presentProjectSummary } from '../layout.presenter';
import { ProjectPath } from '../params/layout-paths.params';
import { ProjectsService } from '../services/projects.service';

@ApiTags('projects')
@ApiBearerAuth()
@Controller('projects')
export class ProjectsController {
  constructor(private readonly projects: ProjectsService) {}

  /** Create a project owned by the calling account. */
  @Post()
  @CreatesResource()
  async create(
    @CurrentAccount() account: AuthenticatedAccount,
    @Body() body: CreateProjectDto,
  ): Promise<ProjectResponse> {
    return presentProject(await this.projects.create(account.id, body));
  }

  /** List the calling account's projects, oldest first, without their blocks. */
  @Get()
  async list(@CurrentAccount() account: AuthenticatedAccount): Promise<ProjectSummaryResponse[]> {
    return (await this.projects.list(account.id)).map(presentProjectSummary);
  }

  /** Retrieve a project with its whole tree: blocks, rows, columns and contents, in order. */
  @Get(':projectId')
  async retrieve(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ProjectPath,
  ): Promise<ProjectResponse> {
    return presentProject(await this.projects.retrieve({ accountId: account.id, ...path }));
  }

  /** Update a project's title. */
  @Put(':projectId')
  async update(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ProjectPath,
    @Body() body: UpdateProjectDto,
  ): Promise<ProjectResponse> {
    return presentProject(await this.projects.update({ accountId: account.id, ...path }, body));
  }

  /** Delete a project with its whole tree. */
  @Delete(':projectId')
  @HttpCode(204)
  async delete(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ProjectPath,
  ): Promise<void> {
    await this.projects.delete({ accountId: account.id, ...path });
  }
}
