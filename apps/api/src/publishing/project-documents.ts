import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Database } from '../database/database';
import { type ProjectScope } from '../layout/layout.scopes';
import { HistoryRepository } from '../layout/repositories/history.repository';
import { ProjectsRepository } from '../layout/repositories/projects.repository';

/** A project's document at a revision: the JSON text or the bytes an instance kept of it. */
export interface ProjectDocument {
  readonly revision: number;
  readonly json: string | Buffer;
}

/**
 * The reads of the layout that publishing renders: the one place that knows which of the
 * layout's repositories answer them, so that a change of the layout's structure changes this
 * file alone. Each read checks the owner as the layout's own reads do (undefined: not the
 * caller's project).
 */
@Injectable()
export class ProjectDocuments {
  private readonly kept: number;

  constructor(
    private readonly db: Database,
    private readonly projects: ProjectsRepository,
    private readonly history: HistoryRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.kept = config.history.revisions;
  }

  /** The project's current revision: one small indexed statement. */
  currentRevision(scope: ProjectScope): Promise<number | undefined> {
    return this.projects.reads.project.revision(this.db, scope);
  }

  /**
   * The current document, once its revision was read: the revision it carries may be newer
   * when a write committed in between.
   */
  current(scope: ProjectScope, revision: number): Promise<ProjectDocument | undefined> {
    return this.projects.reads.project.documentAt(this.db, scope, revision);
  }

  /** Whether `revision` of the project is kept; undefined when the project is not the caller's. */
  pastKept(scope: ProjectScope, revision: number): Promise<boolean | undefined> {
    return this.history.pastRevision(this.db, scope, revision, this.kept);
  }

  /** The document as it was right after `revision`; null when that revision is not kept. */
  async past(scope: ProjectScope, revision: number): Promise<ProjectDocument | null | undefined> {
    const found = await this.history.pastState(this.db, scope, revision, this.kept);
    if (found === undefined) return undefined;
    return found.json === null ? null : { revision, json: found.json };
  }

  /** How many of a project's newest revisions are kept. */
  get keptRevisions(): number {
    return this.kept;
  }
}
