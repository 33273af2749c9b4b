import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { type ProjectRole } from '@layout/contracts';
import { NoticedEntries } from '../common/cache/noticed-entries';
import { Database } from '../database/database';
import { type NoticeArrival, NoticeArrivals } from '../notifications/notice-arrivals';
import { DatabaseNotifications, type Unsubscribe } from '../notifications/notifications';
import {
  MEMBERSHIPS_CHANNEL,
  MEMBERSHIPS_HEARD_CHANNEL,
  type MembershipNotice,
  names,
  readMembershipNotice,
} from './membership-notices';
import { MembersRepository } from './members.repository';

// Spares the policy's lookup on nearly every request of a busy editor. A change of membership
// reaches every instance's entries before it answers (below), so this only bounds how long a
// membership changed behind the service's back (by an operator) may still be taken.
const TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;

/**
 * The caller's role in a project, as the routes' policy asks for it before every operation on
 * a project: kept for a while per account and project, so that a member's reads cost no lookup
 * beyond the one their statements make anyway (each also checks the membership). A change of
 * membership is a notification on MEMBERSHIPS_CHANNEL, sent by the changing transaction: every
 * instance drops what it names and says so, and the changing request waits for all of them, so
 * that from its answer on no instance lets a removed member in or a viewer write. Entries are
 * served only while this instance listens (see AccessTokenCache, built the same way).
 */
@Injectable()
export class ProjectRoles implements OnModuleInit, OnModuleDestroy {
  private readonly entries = new NoticedEntries<ProjectRole>(TTL_MS, MAX_ENTRIES);
  private readonly arrivals: NoticeArrivals;
  private readonly unsubscribe: Unsubscribe[] = [];

  constructor(
    private readonly db: Database,
    private readonly members: MembersRepository,
    private readonly notifications: DatabaseNotifications,
  ) {
    this.arrivals = new NoticeArrivals(
      notifications,
      MEMBERSHIPS_CHANNEL,
      MEMBERSHIPS_HEARD_CHANNEL,
    );
  }

  onModuleInit(): void {
    this.unsubscribe.push(
      this.notifications.subscribe(MEMBERSHIPS_CHANNEL, {
        message: (payload) => this.changed(payload),
        listening: () => this.entries.clear(),
      }),
      this.arrivals.subscribe(),
    );
  }

  onModuleDestroy(): void {
    for (const unsubscribe of this.unsubscribe) unsubscribe();
  }

  /** The account's role in the project; undefined when it is not a member (or no such project). */
  async of(accountId: string, projectId: string): Promise<ProjectRole | undefined> {
    const key = `${accountId} ${projectId}`;
    const listening = this.listening();
    const kept = listening ? this.entries.get(key) : undefined;
    if (kept !== undefined) return kept;
    const lookedUpAt = this.entries.generation();
    const role = await this.members.roleOf(this.db, { accountId, projectId });
    if (role !== undefined && listening) this.entries.set(key, role, lookedUpAt);
    return role;
  }

  /**
   * Before sending `notice`: lets the sender wait until every instance, this one included, has
   * acted on it (see NoticeArrivals.expect).
   */
  expect(notice: MembershipNotice): NoticeArrival {
    return this.arrivals.expect(notice.nonce);
  }

  private changed(payload: string): void {
    const notice = readMembershipNotice(payload);
    // Unreadable (a newer version's notice?): whatever it changed must not be served.
    if (!notice) {
      this.entries.clear();
      return;
    }
    this.entries.drop((key) => {
      const [accountId, projectId] = key.split(' ');
      return names(notice, projectId, accountId);
    });
    this.arrivals.confirm(notice.nonce);
  }

  private listening(): boolean {
    return this.notifications.isListening(MEMBERSHIPS_CHANNEL);
  }
}
