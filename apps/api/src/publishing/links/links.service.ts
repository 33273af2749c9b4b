import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  type CreateShareLinkDto,
  SHARE_LINKS_PER_PROJECT_MAX,
  type ShareLinkResponse,
} from '@layout/contracts';
import { LimitExceededError, ResourceNotFoundError } from '../../common/errors';
import { digestTag } from '../../common/http/entity-tags';
import { type RequestConditions } from '../../common/http/request-conditions';
import { Representation } from '../../common/http/representation';
import { SerializedJson } from '../../common/json/serialized-json';
import { pathOf } from '../../layout/layout.paths';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { Database } from '../../database/database';
import { type ProjectScope } from '../../layout/layout.scopes';
import { type HtmlPage } from '../html-page';
import { RenderedPages } from '../rendered-pages';
import { isLinkToken, linkTokenHash, linkUrl, newLinkToken } from './link-tokens';
import { LinkViews } from './link-views';
import { LinksRepository } from './links.repository';

/**
 * Share links: a revision of a project shown to anyone who has the link, without an account.
 * A link is created for one revision and keeps showing it while that revision is kept; its
 * token is shown once and stored as a hash; revoking deletes it, so the next open on any
 * instance finds nothing (each open looks the link up).
 */
@Injectable()
export class LinksService {
  private readonly kept: number;

  constructor(
    private readonly db: Database,
    private readonly links: LinksRepository,
    private readonly views: LinkViews,
    private readonly pages: RenderedPages,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.kept = config.history.revisions;
  }

  async create(
    scope: ProjectScope,
    body: CreateShareLinkDto | undefined,
  ): Promise<Representation<ShareLinkResponse>> {
    const token = newLinkToken();
    const url = linkUrl(token);
    const created = await this.db.transaction((round) => {
      const row = this.links.create(round, {
        ...scope,
        id: randomUUID(),
        tokenHash: linkTokenHash(token),
        url,
        revision: body?.revision ?? null,
        expiresAt: body?.expiresAt ?? null,
        kept: this.kept,
        max: SHARE_LINKS_PER_PROJECT_MAX,
      });
      return round.finish(() => row.get());
    });
    if (!created?.member) throw new ResourceNotFoundError('Project');
    if (!created.kept) throw new ResourceNotFoundError('Revision');
    if (created.json === null) {
      throw new LimitExceededError(
        SHARE_LINKS_PER_PROJECT_MAX,
        `A project has at most ${SHARE_LINKS_PER_PROJECT_MAX} live share links; revoke one first`,
      );
    }
    const link = new SerializedJson<ShareLinkResponse>(created.json);
    return Representation.of(link, {
      location: `${pathOf.project(scope)}/links/${link.toJSON()._id}`,
    });
  }

  /** The project's live links, newest first, with the views counted until now. */
  async list(
    scope: ProjectScope,
    conditions: RequestConditions,
  ): Promise<Representation<ShareLinkResponse[]>> {
    await this.views.flush();
    const found = await this.links.list(this.db, scope);
    if (found === undefined) throw new ResourceNotFoundError('Project');
    const etag = digestTag('k', found.json);
    if (conditions.isNotModified(etag)) return Representation.notModified(etag);
    return Representation.of(new SerializedJson<ShareLinkResponse[]>(found.json), { etag });
  }

  async revoke(scope: ProjectScope, linkId: string): Promise<void> {
    const found = await this.links.revoke(this.db, scope, linkId);
    if (found === undefined) throw new ResourceNotFoundError('Project');
    if (!found.revoked) throw new ResourceNotFoundError('Share link');
  }

  /**
   * The page a link shows, or undefined when there is no such link (unknown, revoked, expired,
   * its revision no longer kept, its project gone). A successful open is counted.
   */
  async open(token: string, conditions: RequestConditions): Promise<HtmlPage | undefined> {
    if (!isLinkToken(token)) return undefined;
    const link = await this.links.open(this.db, linkTokenHash(token), this.kept);
    if (link === undefined) return undefined;
    let page: HtmlPage;
    try {
      page = await this.pages.checked(
        { accountId: link.ownerId, projectId: link.projectId },
        link.revision,
        conditions,
      );
    } catch (error) {
      // Pruned or deleted between the lookup and the build.
      if (error instanceof ResourceNotFoundError) return undefined;
      throw error;
    }
    this.views.count(link);
    return page;
  }
}
