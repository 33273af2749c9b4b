import { Inject, Injectable } from '@nestjs/common';
import {
  type ListRevisionsQueryDto,
  type ProjectResponse,
  REVISIONS_PAGE_SIZE_DEFAULT,
  type RevisionResponse,
} from '@layout/contracts';
import { type RequestConditions } from '../../common/http/request-conditions';
import { Representation } from '../../common/http/representation';
import { SerializedJson } from '../../common/json/serialized-json';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { Database } from '../../database/database';
import { changeOf } from '../layout.changes';
import { pathOf } from '../layout.paths';
import { type ProjectScope } from '../layout.scopes';
import { nodeTag, revisionsTag } from '../layout.tags';
import { HistoryRepository } from '../repositories/history.repository';
import { answerNode } from './node-answers';
import { notFound } from './not-found';
import { assertTreeWithin } from './tree-limits';
import { TreeWriter } from './tree-writer';

/** A page of revisions, and the `before` of the next page when there is one. */
export interface RevisionsPage {
  readonly representation: Representation<RevisionResponse[]>;
  readonly limit: number;
  readonly nextBefore?: number;
}

/**
 * A project's history: its kept revisions, the whole project as it was after any of them, and
 * a restore of one as a new revision (an undo, sent with `If-Match`). What is recorded, the
 * database records itself with every write (the migration `history`).
 */
@Injectable()
export class HistoryService {
  /** How many of a project's newest revisions are kept. */
  private readonly kept: number;

  constructor(
    private readonly db: Database,
    private readonly writer: TreeWriter,
    private readonly history: HistoryRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.kept = config.history.revisions;
  }

  /**
   * A page of the kept revisions, newest first, tagged by the revisions it shows (see
   * revisionsTag): a page of older revisions keeps its tag while the project moves on.
   */
  async list(
    scope: ProjectScope,
    query: ListRevisionsQueryDto,
    conditions: RequestConditions,
  ): Promise<RevisionsPage> {
    const limit = query.limit ?? REVISIONS_PAGE_SIZE_DEFAULT;
    const page =
      (await this.history.page(this.db, scope, {
        before: query.before ?? null,
        limit,
        kept: this.kept,
      })) ?? notFound('Project');
    const etag = revisionsTag(page.identity);
    return {
      representation: conditions.isNotModified(etag)
        ? Representation.notModified(etag)
        : Representation.of(new SerializedJson<RevisionResponse[]>(page.json), { etag }),
      limit,
      nextBefore: page.nextBefore,
    };
  }

  /**
   * The project as it was right after `revision`, with that revision's tag: the very tag its
   * current read had then (so a client's cached copy of that revision stays valid). That state
   * never changes while it is kept, so a client naming its tag gets 304 from the small check
   * that it is still kept, without the state being built.
   */
  async pastState(
    scope: ProjectScope,
    revision: number,
    conditions: RequestConditions,
  ): Promise<Representation<ProjectResponse>> {
    const etag = nodeTag(revision);
    if (conditions.isNotModified(etag)) {
      const readable =
        (await this.history.pastRevision(this.db, scope, revision, this.kept)) ??
        notFound('Project');
      if (!readable) notFound('Revision');
      return Representation.notModified(etag);
    }
    const found =
      (await this.history.pastState(this.db, scope, revision, this.kept)) ?? notFound('Project');
    if (found.json === null) notFound('Revision');
    return Representation.of(new SerializedJson<ProjectResponse>(found.json), { etag });
  }

  /**
   * Brings the project back to how it was right after `revision`, as a new revision: ids,
   * order, values and `createdAt` as they were; `revision` and `updatedAt` move on. `If-Match`
   * is compared with the project's current tag: an undo (a restore of the revision before)
   * cannot undo a newer change of someone else's. What was true then (row widths, limits)
   * holds again; the project's size is checked as for any write.
   */
  restore(
    scope: ProjectScope,
    revision: number,
    conditions: RequestConditions,
  ): Promise<Representation<ProjectResponse>> {
    const change = changeOf('project', 'restore', pathOf.project(scope));
    return this.writer.write(scope, change, (write) => {
      const restored = this.history.restore(write, {
        projectId: scope.projectId,
        revision,
        kept: this.kept,
      });
      return write.finish(() => {
        const project = write.project.get();
        const done = restored.get() ?? notFound('Revision');
        conditions.assertPreconditions(nodeTag(project.currentRevision));
        assertTreeWithin(project.treeBytes, done.treeBytes);
        return answerNode<ProjectResponse>(done.json, project.revision, project.revision);
      });
    });
  }
}
