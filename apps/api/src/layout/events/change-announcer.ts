import { Injectable } from '@nestjs/common';
import { outsideAnyRequest } from '../../common/logging/request-context';
import { DatabaseNotifications } from '../../notifications/notifications';
import { CHANGES_CHANNEL } from './change-feed';

/**
 * Tells every instance (NOTIFY on this instance's own connection) that a project has changed,
 * once the write has committed: not from inside the write, where PostgreSQL would hold one lock
 * across all databases from the write's pre-commit to the end of its commit, serialising every
 * project's commits. A notification only says "read the history again"; one lost (the instance
 * dies before sending, the connection is down) is made up by the feeds' next keep-alive read.
 *
 * Announcements are gathered until the end of the event loop's turn, and while a statement is on
 * its way: then every project announced goes out once, all in one statement. A group commit
 * answers all its writes in one turn, so its writes cost one notification between them; each is
 * sent after every commit it announces, which is all a feed needs to read them.
 */
@Injectable()
export class ChangeAnnouncer {
  /** Projects announced since the last statement left. */
  private readonly due = new Set<string>();
  /** A statement is on its way, or is about to leave at the end of this turn. */
  private sending = false;

  constructor(private readonly notifications: DatabaseNotifications) {}

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
      await outsideAnyRequest(() => this.notifications.sendEach(CHANGES_CHANNEL, projects));
    }
    this.sending = false;
  }
}
