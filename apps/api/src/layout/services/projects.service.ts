import { Injectable } from '@nestjs/common';
import { type IdempotencyRequest } from '../../common/http/idempotency';
import { IdempotencyKeysRepository } from '../repositories/idempotency-keys.repository';
import { answerOnce } from './answer-once';
import {
  COPY_TITLE_SUFFIX,
  type CreateProjectDto,
  DUPLICATE_NODES_MAX,
  type DuplicateProjectDto,
  type ListProjectsQueryDto,
  type ProjectFormat,
  type ProjectResponse,
  type ProjectSummaryResponse,
  PROJECTS_PER_ACCOUNT_MAX,
  TITLE_MAX_LENGTH,
  type UpdateProjectDto,
} from '@layout/contracts';
import { type RequestConditions } from '../../common/http/request-conditions';
import { Representation } from '../../common/http/representation';
import { SerializedJson } from '../../common/json/serialized-json';
import { AuthenticationRequiredError } from '../../common/errors';
import { AssetNames } from '../../assets/asset-names';
import { Database } from '../../database/database';
import { changeOf } from '../layout.changes';
import { pathOf } from '../layout.paths';
import { type ProjectScope } from '../layout.scopes';
import { nodeTag, portableTag, projectListTag } from '../layout.tags';
import { portableDocument } from './portable-document';
import { encodeProjectListCursor, projectListKeyOf } from '../project-list-cursor';
import { ProjectsRepository } from '../repositories/projects.repository';
import { newNodeId } from './body-ids';
import { assertWithin, plannedSubtree } from './node-trees';
import { answerNode, answerUnchanged } from './node-answers';
import { notFound } from './not-found';
import { readTagged } from './tagged-read';
import { assertCopyWithin, assertTreeWithin, assertWithinCount } from './tree-limits';
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
    private readonly assets: AssetNames,
  ) {}

  /**
   * The account's projects, in creation order: every one of them, or with `limit` a page of
   * at most that many, after the project the cursor names. 304 when `If-None-Match` names the page's current tag
   * (found from the page's digest, without building the document). `next` is the cursor of
   * the following page, when there is one.
   */
  async list(
    accountId: string,
    query: ListProjectsQueryDto,
    conditions: RequestConditions,
  ): Promise<ProjectListPage> {
    // The account holds no more than this: without a limit, the page is the whole list.
    const limit = query.limit ?? PROJECTS_PER_ACCOUNT_MAX;
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

  /** The project with its whole tree; as an export (its own tag) with `format=portable`. */
  async retrieve(
    scope: ProjectScope,
    conditions: RequestConditions,
    format?: ProjectFormat,
  ): Promise<Representation<ProjectResponse>> {
    const { project } = this.projects.reads;
    if (format !== 'portable') {
      return readTagged(this.db, project, scope, conditions, nodeTag, 'Project');
    }
    const read = await readTagged<ProjectScope, ProjectResponse>(
      this.db,
      project,
      scope,
      conditions,
      portableTag,
      'Project',
    );
    if (read.body === undefined) return read;
    const exported = portableDocument(read.body.text);
    return Representation.of(new SerializedJson<ProjectResponse>(exported), read.headers);
  }

  /**
   * A new project, at revision 1, with the blocks its body gives (and everything in them: a
   * project read or exported and posted back makes a copy); an account holds at most 10 000.
   */
  async create(
    accountId: string,
    body: CreateProjectDto,
    idempotency?: IdempotencyRequest,
  ): Promise<Representation<ProjectResponse>> {
    const named = await this.assets.nameable(accountId, body);
    const projectId = newNodeId();
    const subtree = plannedSubtree('project', body, projectId);
    const scope = { accountId, projectId };
    return this.db.transaction((round) =>
      answerOnce(
        round,
        this.keys,
        accountId,
        idempotency,
        this.assets.held(named, (next) => {
          const created = this.projects.insert(next, { ...scope, title: body.title }, subtree);
          // With its tree, which the insert's own answer cannot see yet.
          const document =
            subtree.nodes > 1 ? this.projects.reads.project.documentIn(next, scope) : undefined;
          return next.finish(() => {
            const project = created.get() ?? accountGone();
            assertWithinCount(project.projects, PROJECTS_PER_ACCOUNT_MAX, 'An account');
            assertWithin('', () => assertTreeWithin(0, project.treeBytes));
            return answerNode<ProjectResponse>(
              document?.get()?.json ?? project.json,
              1,
              1,
              pathOf.project(scope),
            );
          });
        }),
      ),
    );
  }

  async update(
    scope: ProjectScope,
    body: UpdateProjectDto,
    conditions: RequestConditions,
  ): Promise<Representation<ProjectResponse>> {
    return this.writer.write(scope, changeOf('project', 'update', pathOf.project(scope)), (write) =>
      write.next((round) => {
        const project = write.project.get();
        conditions.assertPreconditions(nodeTag(project.currentRevision));
        if (body.title === undefined || body.title === project.title) {
          return answerUnchanged<ProjectScope, ProjectResponse>(
            round,
            this.projects.reads.project,
            scope,
            project.currentRevision,
            'Project',
          );
        }
        const updated = this.projects.retitle(round, scope, body.title);
        return round.finish(() => {
          assertTreeWithin(project.treeBytes, updated.get().treeBytes);
          return answerNode<ProjectResponse>(
            updated.get().json,
            project.revision,
            project.revision,
          );
        });
      }),
    );
  }

  /** Deletes the project with its whole tree. */
  async delete(scope: ProjectScope, conditions: RequestConditions): Promise<Representation<never>> {
    return this.writer.write(scope, changeOf('project', 'delete', pathOf.project(scope)), (write) =>
      write.next((round) => {
        const project = write.project.get();
        conditions.assertPreconditions(nodeTag(project.currentRevision));
        this.projects.delete(round, scope);
        return round.finish(() => Representation.empty({ projectRevision: project.revision }));
      }),
    );
  }

  /**
   * A new project of the caller's with a copy of the whole tree (new ids everywhere), at
   * revision 1, titled `title` or the original's title followed by " (copy)". It counts
   * against the account's projects and the nodes one duplicate may create. The original is only
   * read (in one statement's snapshot), not locked: its writers go on meanwhile.
   */
  async duplicate(
    scope: ProjectScope,
    body: DuplicateProjectDto,
    conditions: RequestConditions,
    idempotency?: IdempotencyRequest,
  ): Promise<Representation<ProjectResponse>> {
    const copyId = newNodeId();
    return this.db.transaction((round) =>
      answerOnce(round, this.keys, scope.accountId, idempotency, (next) => {
        const copy = this.projects.copy(next, scope, {
          copyId,
          title: body.title ?? null,
          titleMax: TITLE_MAX_LENGTH,
          titleSuffix: COPY_TITLE_SUFFIX,
          maxNodes: DUPLICATE_NODES_MAX,
        });
        return next.finish(() => {
          const copied = copy.copied.get() ?? notFound('Project');
          conditions.assertPreconditions(nodeTag(copied.revision));
          assertCopyWithin({
            nodes: copied.nodes,
            treeBefore: 0,
            treeAfter: copied.treeBytes ?? 0,
          });
          // Within the nodes, the statement copies nothing only for an account deleted since
          // its token was checked.
          if (!copied.copied) accountGone();
          assertWithinCount(copied.projects ?? 0, PROJECTS_PER_ACCOUNT_MAX, 'An account');
          return answerNode<ProjectResponse>(
            copy.json.get() ?? notFound('Project'),
            1,
            1,
            pathOf.project({ projectId: copyId }),
          );
        });
      }),
    );
  }
}

/** The account was deleted after its token was checked: the token no longer works. */
function accountGone(): never {
  throw new AuthenticationRequiredError('This token no longer works', 'invalid_token');
}
