import { Injectable } from '@nestjs/common';
import { ResourceNotFoundError } from '../common/errors';
import { type RequestConditions } from '../common/http/request-conditions';
import { Database } from '../database/database';
import { type ProjectScope } from '../layout/layout.scopes';
import { nodeTag } from '../layout/layout.tags';
import { DocumentCache } from '../layout/repositories/document-cache';
import { type HtmlPage } from './html-page';
import { type ProjectDocument, ProjectDocuments } from './project-documents';
import { renderPage } from './render/page-renderer';

/**
 * A project rendered as a page, at its current revision or a past one. A page is named by its
 * project and revision, so it never changes: this instance keeps the pages it rendered beside
 * the documents it built (DocumentCache, within READ_CACHE_BYTES) and serves them again after
 * the one small statement that checks the owner and the revision, as the JSON reads do. Its tag
 * is the project's at that revision.
 */
@Injectable()
export class RenderedPages {
  constructor(
    private readonly db: Database,
    private readonly documents: ProjectDocuments,
    private readonly kept: DocumentCache,
  ) {}

  /** The project as it is now. */
  async current(scope: ProjectScope, conditions: RequestConditions): Promise<HtmlPage> {
    const revision = (await this.documents.currentRevision(scope)) ?? notFound('Project');
    const etag = nodeTag(revision);
    if (conditions.isNotModified(etag)) return { etag };
    const page = await this.keptPage(scope.projectId, revision);
    if (page !== undefined) return page;
    return this.render(
      scope.projectId,
      (await this.documents.current(scope, revision)) ?? notFound('Project'),
    );
  }

  /** The project as it was right after `revision`, while that revision is kept. */
  async past(
    scope: ProjectScope,
    revision: number,
    conditions: RequestConditions,
  ): Promise<HtmlPage> {
    const etag = nodeTag(revision);
    const page = conditions.isNotModified(etag)
      ? { etag }
      : await this.keptPage(scope.projectId, revision);
    if (page !== undefined) {
      const readable = (await this.documents.pastKept(scope, revision)) ?? notFound('Project');
      if (!readable) notFound('Revision');
      return page;
    }
    return this.render(scope.projectId, await this.pastDocument(scope, revision));
  }

  /**
   * A revision whose project and revision the caller has checked already (a share link's
   * lookup did): the kept page without another statement.
   */
  async checked(
    scope: ProjectScope,
    revision: number,
    conditions: RequestConditions,
  ): Promise<HtmlPage> {
    const etag = nodeTag(revision);
    if (conditions.isNotModified(etag)) return { etag };
    const page = await this.keptPage(scope.projectId, revision);
    if (page !== undefined) return page;
    return this.render(scope.projectId, await this.pastDocument(scope, revision));
  }

  private async pastDocument(scope: ProjectScope, revision: number): Promise<ProjectDocument> {
    const document = (await this.documents.past(scope, revision)) ?? notFound('Project');
    return document ?? notFound('Revision');
  }

  private async keptPage(projectId: string, revision: number): Promise<HtmlPage | undefined> {
    const html = this.kept.find(pageName(projectId, revision), revision);
    if (html === undefined) return undefined;
    // A large page takes its account's share of the heavy reads, as its document would.
    await this.db.admitKept(html.length);
    return { etag: nodeTag(revision), html };
  }

  private render(projectId: string, document: ProjectDocument): HtmlPage {
    const json = typeof document.json === 'string' ? document.json : document.json.toString('utf8');
    const html = renderPage(JSON.parse(json) as Record<string, unknown>);
    const bytes =
      this.kept.keep(pageName(projectId, document.revision), document.revision, html) ??
      Buffer.from(html, 'utf8');
    return { etag: nodeTag(document.revision), html: bytes };
  }
}

/** What names a project's page at a revision among the kept documents. */
function pageName(projectId: string, revision: number): string {
  return `publishing.page ${projectId} ${revision}`;
}

function notFound(resource: string): never {
  throw new ResourceNotFoundError(resource);
}
