import { Injectable } from '@nestjs/common';
import { type PresenceResponse, type SetPresenceDto } from '@layout/contracts';
import { RequestValidationError } from '../../common/errors';
import { ForbiddenByRoleError } from '../../members/errors';
import { digestTag } from '../../common/http/entity-tags';
import { type RequestConditions } from '../../common/http/request-conditions';
import { Representation } from '../../common/http/representation';
import { SerializedJson } from '../../common/json/serialized-json';
import { Database } from '../../database/database';
import { PresenceAnnouncer } from '../events/change-announcer';
import { ChangeFeed } from '../events/change-feed';
import { type ProjectScope } from '../layout.scopes';
import { PresenceRepository } from '../repositories/presence.repository';
import { notFound } from './not-found';

/**
 * Who has a project open, and where in it they are: read by any member, said by each of itself.
 * Its events travel with the project's event streams (PresenceFeed); a change said here is
 * announced to every instance once it has committed.
 */
@Injectable()
export class PresenceService {
  constructor(
    private readonly db: Database,
    private readonly presence: PresenceRepository,
    private readonly announcer: PresenceAnnouncer,
    private readonly feed: ChangeFeed,
  ) {}

  /** The project's presence, as its streams' `presence` events carry it. */
  async read(
    scope: ProjectScope,
    conditions: RequestConditions,
  ): Promise<Representation<PresenceResponse>> {
    const found = (await this.presence.presentTo(this.db, scope)) ?? notFound('Project');
    const etag = digestTag('s', found.json);
    if (conditions.isNotModified(etag)) return Representation.notModified(etag);
    return Representation.of(new SerializedJson<PresenceResponse>(found.json), { etag });
  }

  /**
   * Where the caller is in the project and what it does there: members left out keep their
   * value. The location must be a path of this project (400); only an editor or the owner is
   * `editing` (403). It lasts as long as the caller's streams, or a lease when it has none yet.
   */
  async set(scope: ProjectScope, body: SetPresenceDto): Promise<void> {
    const saved = await this.presence.set(this.db, {
      ...scope,
      setLocation: body.location !== undefined,
      location: body.location ?? null,
      state: body.state ?? null,
      leaseMs: this.feed.leaseMs,
    });
    if (saved === 'no-member') notFound('Project');
    if (saved === 'not-a-path') {
      throw new RequestValidationError([
        { pointer: '/location', detail: 'is not the path of this project or of a node in it' },
      ]);
    }
    if (saved !== 'saved') throw new ForbiddenByRoleError(saved.role, 'editor', 'be editing');
    this.announcer.announce(scope.projectId);
  }
}
