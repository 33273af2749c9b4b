import { Injectable } from '@nestjs/common';
import { outsideAnyRequest } from '../../common/logging/request-context';
import { DatabaseNotifications } from '../../database/notifications';
import { CHANGES_CHANNEL } from './change-feed';

/**
 * Tells every instance (NOTIFY on this instance's own connection) that a project has changed,
 * once the write has committed: not from inside the write, where PostgreSQL would hold one lock
 * across all databases from the write's pre-commit to the end of its commit, serialising every
 * project's commits. A notification only says "read the history again"; one lost (the instance
 * dies before sending, the connection is down) is made up by the feeds' next keep-alive read.
 * Announcements of one project that meet while one is being sent go out as one.
 */
@Injectable()
export class ChangeAnnouncer {
  /** Projects whose announcement is being sent, and whether another is due after it. */
  private readonly sending = new Map<string, boolean>();

  constructor(private readonly notifications: DatabaseNotifications) {}

  /** Announces a committed change of `projectId`; returns at once (it is sent in the background). */
  announce(projectId: string): void {
    if (this.sending.has(projectId)) {
      this.sending.set(projectId, true);
      return;
    }
    this.sending.set(projectId, false);
    void this.send(projectId);
  }

  private async send(projectId: string): Promise<void> {
    for (;;) {
      await outsideAnyRequest(() => this.notifications.send(CHANGES_CHANNEL, projectId));
      if (this.sending.get(projectId) !== true) break;
      this.sending.set(projectId, false);
    }
    this.sending.delete(projectId);
  }
}
