import { Injectable } from '@nestjs/common';
import { outsideAnyRequest } from '../../common/logging/request-context';
import { DatabaseNotifications } from '../../notifications/notifications';
import { CHANGES_CHANNEL } from './change-feed';

/** The channel on which a change of a project's presence is announced: its id (PresenceFeed). */
export const PRESENCE_CHANNEL = 'layout_presence';

/**
 * Tells every instance (NOTIFY on this instance's own connection, on its channel) that a
 * project has changed, its tree or its presence, once the change has committed: not from inside the write, where PostgreSQL would hold one lock
 * across all databases from the write's pre-commit to the end of its commit, serialising every
 * project's commits. A notification only says "read the history again"; one lost (the instance
 * dies before sending, the connection is down) is made up by the feeds' next keep-alive read.
 *
 * Announcements are gathered until the end of the event loop's turn, and while a statement is on
 * its way: then every project announced goes out once, all in one statement. A group commit
 * answers all its writes in one turn, so its writes cost one notification between them; each is
 * sent after every commit it announces, which is all a feed needs to read them.
 */
export class ProjectAnnouncer {
  /** Projects announced since the last statement left. */
  private readonly due = new Set<string>();
  /** A statement is on its way, or is about to leave at the end of this turn. */
  private sending = false;

  constructor(
    private readonly notifications: DatabaseNotifications,
    private readonly channel: string,
  ) {}

  /** Announces a committed change of `projectId`; returns at once (it is sent in the background). */
  announce(projectId: string): void {
    this.due.add(projectId);
    if (this.sending) return;
    this.sending = true;
    setImmediate(() => void this.send());
  }

  private async send(): Promise<void> {
    while (this.due.size > 0) {
      const projects = [...this.due];
      this.due.clear();
      await outsideAnyRequest(() => this.notifications.sendEach(this.channel, projects));
    }
    this.sending = false;
  }
}

/** Announces committed changes of projects' trees (the writes' TreeWriter). */
@Injectable()
export class ChangeAnnouncer extends ProjectAnnouncer {
  constructor(notifications: DatabaseNotifications) {
    super(notifications, CHANGES_CHANNEL);
  }
}

/**
 * Announces changes of projects' presence (a stream opened or closed, a `PUT …/presence`), so
 * that every instance's streams of the project hear of it.
 */
@Injectable()
export class PresenceAnnouncer extends ProjectAnnouncer {
  constructor(notifications: DatabaseNotifications) {
    super(notifications, PRESENCE_CHANNEL);
  }
}
