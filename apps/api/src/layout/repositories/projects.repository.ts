import { Injectable } from '@nestjs/common';
import { type ProjectResponse } from '@layout/contracts';
import { type SerializedJson } from '../../common/json/serialized-json';
import { PrismaService } from '../../database/prisma.service';
import { type ProjectRecord, type ProjectSummaryRecord } from '../layout.records';
import { type ProjectScope } from '../layout.scopes';
import { DOCUMENT, readDocument } from './documents';
import { toProject } from './record-mappers';
import { projectMatch } from './scope-sql';
import { projectSelect, projectSummarySelect } from './tree-selects';

@Injectable()
export class ProjectsRepository {
  constructor(private readonly prisma: PrismaService) {}

  listOwnedBy(accountId: string): Promise<ProjectSummaryRecord[]> {
    return this.prisma.project.findMany({
      where: { ownerId: accountId },
      select: projectSummarySelect,
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
  }

  findTreeDocument(scope: ProjectScope): Promise<SerializedJson<ProjectResponse> | null> {
    return readDocument(this.prisma, DOCUMENT.project, projectMatch(scope));
  }

  async create(accountId: string, title: string): Promise<ProjectRecord> {
    const project = await this.prisma.project.create({
      data: { ownerId: accountId, title },
      select: projectSelect,
    });
    return toProject(project);
  }

  /** Returns null when the project does not exist for this account. */
  async update(
    scope: ProjectScope,
    changes: { title?: string },
  ): Promise<SerializedJson<ProjectResponse> | null> {
    const { count } = await this.prisma.project.updateMany({
      where: { id: scope.projectId, ownerId: scope.accountId },
      data: changes,
    });
    return count === 0 ? null : this.findTreeDocument(scope);
  }

  /** Deletes the project and, by cascade, its whole subtree. */
  async delete(scope: ProjectScope): Promise<boolean> {
    const { count } = await this.prisma.project.deleteMany({
      where: { id: scope.projectId, ownerId: scope.accountId },
    });
    return count > 0;
  }
}
