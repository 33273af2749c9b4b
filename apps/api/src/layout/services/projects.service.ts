import { Injectable } from '@nestjs/common';
import { type IdempotencyRequest } from '../../common/http/idempotency';
import { IdempotencyKeysRepository } from '../repositories/idempotency-keys.repository';
import { createIdempotently } from './idempotent-create';
import {
  type CreateProjectDto,
  type ListProjectsQueryDto,
  type ProjectResponse,
  type ProjectSummaryResponse,
  PROJECTS_PAGE_SIZE_DEFAULT,
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
import { encodeProjectListCursor, projectListKeyOf } from '../project-list-cursor';
import { ProjectsRepository } from '../repositories/projects.repository';
import { answerNode, answerUnchanged } from './node-answers';
import { readTagged } from './tagged-read';
import { assertTreeWithin, assertWithinCount } from './tree-limits';
import { TreeWriter } from './tree-writer';

/** A page of `GET /projects`: the answer, and the cursor of the next page when there is one. */
export interface ProjectListPage {
  /** The page's size, as asked or by default. */
  readonly limit: number;
  readonly representation: Representation<ProjectSummaryResponse[]>;
  /** Cursor of the next page; absent on the last page (and on a 304). */
  readonly next?: string;
}

@Injectable()
export class ProjectsService {
  constructor(
    private readonly db: Database,
    private readonly writer: TreeWriter,
    private readonly projects: ProjectsRepository,
    private readonly keys: IdempotencyKeysRepository,
  ) {}

  /**
   * A page of the account's projects, in creation order: at most `limit` (50 when left out),
   * after the project the cursor names. 304 when `If-None-Match` names the page's current tag
   * (found from the page's digest, without building the document). `next` is the cursor of
   * the following page, when there is one.
   */
  async list(
    accountId: string,
    query: ListProjectsQueryDto,
    conditions: RequestConditions,
  ): Promise<ProjectListPage> {
    const limit = query.limit ?? PROJECTS_PAGE_SIZE_DEFAULT;
    const after =
      query.cursor === undefined ? undefined : projectListKeyOf(accountId, query.cursor);
    const pageQuery = { accountId, limit, ...(after ? { after } : {}) };
    if (conditions.asksIfNoneMatch) {
      const digest = await this.projects.pageDigest(this.db, pageQuery);
      const tag = projectListTag({ limit, after, ...digest });
      if (conditions.isNotModified(tag)) {
        return { limit, representation: Representation.notModified(tag) };
      }
    }
    const page = await this.projects.page(this.db, pageQuery);
    const representation = Representation.of(
      new SerializedJson<ProjectSummaryResponse[]>(page.json),
      { etag: projectListTag({ limit, after, digest: page.digest, more: page.more }) },
    );
    const next = page.more && page.last ? encodeProjectListCursor(accountId, page.last) : undefined;
    return { limit, representation, ...(next ? { next } : {}) };
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
    idempotency?: IdempotencyRequest,
  ): Promise<Representation<ProjectResponse>> {
    return this.db.transaction((tx) =>
      createIdempotently(tx, this.keys, accountId, idempotency, async () => {
        const created = await this.projects.insert(tx, accountId, body.title);
        assertWithinCount(created.projects, PROJECTS_PER_ACCOUNT_MAX, 'An account');
        return answerNode<ProjectResponse>(
          created.json,
          created.revision,
          created.revision,
          pathOf.project({ projectId: created.id }),
        );
      }),
    );
  }

  async update(
    scope: ProjectScope,
    body: UpdateProjectDto,
    conditions: RequestConditions,
  ): Promise<Representation<ProjectResponse>> {
    return this.writer.write(scope, async (write) => {
      const project = await write.project;
      conditions.assertPreconditions(nodeTag(project.currentRevision));
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
      conditions.assertPreconditions(nodeTag(project.currentRevision));
      await this.projects.delete(write.tx, scope);
      return Representation.empty({ projectRevision: project.revision });
    });
  }
}
