import { Injectable } from '@nestjs/common';
import { PrismaService } from '../../database/prisma.service';
import { type ProjectRecord, type ProjectSummaryRecord } from '../layout.records';
import { type ProjectScope } from '../layout.scopes';
import { toProject } from './record-mappers';
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

  async findTree(scope: ProjectScope): Promise<ProjectRecord | null> {
    const project = await this.prisma.project.findFirst({
      where: { id: scope.projectId, ownerId: scope.accountId },
      select: projectSelect,
    });
    return project && toProject(project);
  }

  async create(accountId: string, title: string): Promise<ProjectRecord> {
    const project = await this.prisma.project.create({
      data: { ownerId: accountId, title },
      select: projectSelect,
    });
    return toProject(project);
  }

  /** Returns null when the project does not exist for this account. */
  async update(scope: ProjectScope, changes: { title?: string }): Promise<ProjectRecord | null> {
    const { count } = await this.prisma.project.updateMany({
      where: { id: scope.projectId, ownerId: scope.accountId },
      data: changes,
    });
    return count === 0 ? null : this.findTree(scope);
  }

  /** Deletes the project and, by cascade, its whole subtree. */
  async delete(scope: ProjectScope): Promise<boolean> {
    const { count } = await this.prisma.project.deleteMany({
      where: { id: scope.projectId, ownerId: scope.accountId },
    });
    return count > 0;
  }
}
