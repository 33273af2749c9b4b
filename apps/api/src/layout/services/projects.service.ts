import { Injectable } from '@nestjs/common';
import {
  type CreateProjectDto,
  type ProjectResponse,
  type ProjectSummaryResponse,
  PROJECTS_PER_ACCOUNT_MAX,
  type UpdateProjectDto,
} from '@layout/contracts';
import { type RequestConditions } from '../../common/http/request-conditions';
import { Representation } from '../../common/http/representation';
import { SerializedJson } from '../../common/json/serialized-json';
import { Database } from '../../database/database';
import { pathOf } from '../layout.paths';
import { type ProjectScope } from '../layout.scopes';
import { nodeTag, projectListTag } from '../layout.tags';
import { ProjectsRepository } from '../repositories/projects.repository';
import { answerNode, answerUnchanged } from './node-answers';
import { readTagged } from './tagged-read';
import { assertTreeWithin, assertWithinCount } from './tree-limits';
import { TreeWriter } from './tree-writer';

@Injectable()
export class ProjectsService {
  constructor(
    private readonly db: Database,
    private readonly writer: TreeWriter,
    private readonly projects: ProjectsRepository,
  ) {}

  async list(
    accountId: string,
    conditions: RequestConditions,
  ): Promise<Representation<ProjectSummaryResponse[]>> {
    if (conditions.asksIfNoneMatch) {
      const tag = projectListTag(await this.projects.listDigest(this.db, accountId));
      if (conditions.isNotModified(tag)) return Representation.notModified(tag);
    }
    const list = await this.projects.listDocument(this.db, accountId);
    if (!list) throw new Error('projects.list: an aggregate always answers a row');
    return Representation.of(new SerializedJson<ProjectSummaryResponse[]>(list.json), {
      etag: projectListTag(list.digest),
    });
  }

  retrieve(
    scope: ProjectScope,
    conditions: RequestConditions,
  ): Promise<Representation<ProjectResponse>> {
    return readTagged(this.db, this.projects.reads.project, scope, conditions, nodeTag, 'Project');
  }

  /** A new project, at revision 1; an account holds at most 10 000. */
  async create(
    accountId: string,
    body: CreateProjectDto,
  ): Promise<Representation<ProjectResponse>> {
    return this.db.transaction(async (tx) => {
      const created = await this.projects.insert(tx, accountId, body.title);
      assertWithinCount(created.projects, PROJECTS_PER_ACCOUNT_MAX, 'An account');
      return answerNode<ProjectResponse>(
        created.json,
        created.revision,
        created.revision,
        pathOf.project({ projectId: created.id }),
      );
    });
  }

  async update(
    scope: ProjectScope,
    body: UpdateProjectDto,
    conditions: RequestConditions,
  ): Promise<Representation<ProjectResponse>> {
    return this.writer.write(scope, async (write) => {
      const project = await write.project;
      conditions.assertIfMatch(nodeTag(project.currentRevision));
      if (body.title === undefined || body.title === project.title) {
        return answerUnchanged(
          write.tx,
          this.projects.reads.project,
          scope,
          project.currentRevision,
          'Project',
        );
      }
      const updated = await this.projects.retitle(write.tx, scope, body.title);
      assertTreeWithin(project.treeBytes, updated.treeBytes);
      return answerNode<ProjectResponse>(updated.json, project.revision, project.revision);
    });
  }

  /** Deletes the project with its whole tree. */
  async delete(scope: ProjectScope, conditions: RequestConditions): Promise<Representation<never>> {
    return this.writer.write(scope, async (write) => {
      const project = await write.project;
      conditions.assertIfMatch(nodeTag(project.currentRevision));
      await this.projects.delete(write.tx, scope);
      return Representation.empty({ projectRevision: project.revision });
    });
  }
}
