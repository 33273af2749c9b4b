import { Injectable } from '@nestjs/common';
import {
  type ProjectResponse,
  type CreateProjectDto,
  type UpdateProjectDto,
} from '@layout/contracts';
import { type SerializedJson } from '../../common/json/serialized-json';
import { type ProjectRecord, type ProjectSummaryRecord } from '../layout.records';
import { type ProjectScope } from '../layout.scopes';
import { ProjectsRepository } from '../repositories/projects.repository';
import { notFound } from './not-found';

@Injectable()
export class ProjectsService {
  constructor(private readonly projects: ProjectsRepository) {}

  list(accountId: string): Promise<ProjectSummaryRecord[]> {
    return this.projects.listOwnedBy(accountId);
  }

  async retrieve(scope: ProjectScope): Promise<SerializedJson<ProjectResponse>> {
    return (await this.projects.findTreeDocument(scope)) ?? notFound('Project');
  }

  create(accountId: string, body: CreateProjectDto): Promise<ProjectRecord> {
    return this.projects.create(accountId, body.title);
  }

  async update(
    scope: ProjectScope,
    body: UpdateProjectDto,
  ): Promise<SerializedJson<ProjectResponse>> {
    return (await this.projects.update(scope, { title: body.title })) ?? notFound('Project');
  }

  async delete(scope: ProjectScope): Promise<void> {
    if (!(await this.projects.delete(scope))) notFound('Project');
  }
}
