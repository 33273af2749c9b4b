import {
  Inject,
  Injectable,
  Logger,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import { outsideAnyRequest } from '../../common/logging/request-context';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { Database } from '../../database/database';
import { DatabaseNotifications, type Unsubscribe } from '../../notifications/notifications';
import { MEMBERSHIPS_CHANNEL, readMembershipNotice } from '../../members/membership-notices';
import { type Presence, PresenceRepository } from '../repositories/presence.repository';
import { PRESENCE_CHANNEL, PresenceAnnouncer } from './change-announcer';
import { ChangeFeed, type StreamWatcher } from './change-feed';
import { type EventStream } from './event-stream';

/** How long after a lease's end the presence is read again: the end is PostgreSQL's clock. */
const PAST_EXPIRY_MS = 50;

/** The presence of one project that this instance's streams were sent, and its read. */
interface ProjectPresence {
  /** The last presence sent (its `data`); undefined before the first. */
  sent?: string;
  /** Whether it shows a location, which a change of the tree may clear. */
  located: boolean;
  reading: boolean;
  /** Something happened while reading: read again once done. */
  again: boolean;
  /** Reads again when the first lease lapses, if nobody renews it (a dead instance's). */
  expiry?: NodeJS.Timeout;
}

/**
 * Sends every stream its project's presence: as its first event, and again whenever presence
 * changes on any instance. Presence is read from PostgreSQL (one read per project at a time,
 * shared by its streams here) when something says it may have changed, never on a clock as
 * such: a stream joining or leaving anywhere, a `PUT …/presence` (both announced by NOTIFY on
 * PRESENCE_CHANNEL, which every instance hears), a membership ended or changed (its own
 * notice), a change of the tree when a location is shown (it may have gone), and the moment the
 * first lease of the project's streams lapses unless renewed (an instance that died renews none,
 * and its accounts then stop being present). The keep-alive reads again too, which bounds how
 * late a lost notification's change arrives. A stream is sent the presence when it differs from
 * the last one sent (a stream that just joined, always).
 */
@Injectable()
export class PresenceFeed implements StreamWatcher, OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('PresenceFeed');
  private readonly projects = new Map<string, ProjectPresence>();
  private readonly heartbeatMs: number;
  private unsubscribe: Unsubscribe[] = [];
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Database,
    private readonly feed: ChangeFeed,
    private readonly presence: PresenceRepository,
    private readonly notifications: DatabaseNotifications,
    private readonly announcer: PresenceAnnouncer,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.heartbeatMs = config.events.heartbeatMs;
  }

  onModuleInit(): void {
    this.feed.watch(this);
    this.unsubscribe = [
      this.notifications.subscribe(PRESENCE_CHANNEL, {
        message: (projectId) => this.refresh(projectId),
        listening: () => this.refreshAll(),
      }),
      this.notifications.subscribe(MEMBERSHIPS_CHANNEL, {
        message: (payload) => {
          const notice = readMembershipNotice(payload);
          if (notice) this.refresh(notice.projectId);
          else this.refreshAll();
        },
      }),
    ];
    this.heartbeat = setInterval(() => this.refreshAll(), this.heartbeatMs);
    this.heartbeat.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.heartbeat);
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    for (const project of this.projects.values()) clearTimeout(project.expiry);
  }

  joined(stream: EventStream): void {
    const { projectId } = stream.owner;
    // Its lease committed before it joined: every instance reads the presence with it.
    this.announcer.announce(projectId);
    this.refresh(projectId);
  }

  left(stream: EventStream): void {
    this.announcer.announce(stream.owner.projectId);
  }

  changed(projectId: string): void {
    if (this.projects.get(projectId)?.located) this.refresh(projectId);
  }

  /** The project's presence was said to change: its streams here are sent it, if it did. */
  private refresh(projectId: string): void {
    if (this.feed.streamsOf(projectId).length === 0) {
      this.forget(projectId);
      return;
    }
    let project = this.projects.get(projectId);
    if (!project) {
      project = { located: false, reading: false, again: false };
      this.projects.set(projectId, project);
    }
    if (project.reading) {
      project.again = true;
      return;
    }
    project.reading = true;
    void outsideAnyRequest(() => this.readUntilCurrent(projectId, project)).finally(() => {
      project.reading = false;
    });
  }

  private refreshAll(): void {
    for (const projectId of new Set([...this.projects.keys(), ...this.feed.projectIds()])) {
      this.refresh(projectId);
    }
  }

  private async readUntilCurrent(projectId: string, project: ProjectPresence): Promise<void> {
    do {
      project.again = false;
      let presence: Presence;
      try {
        presence = await this.presence.present(this.db, projectId);
      } catch (error) {
        // The next notification or keep-alive reads again: nothing is lost meanwhile.
        this.logger.warn(`Could not read the presence of a project: ${String(error)}`);
        return;
      }
      this.send(projectId, project, presence);
    } while (project.again);
  }

  private send(projectId: string, project: ProjectPresence, presence: Presence): void {
    const changed = presence.json !== project.sent;
    project.sent = presence.json;
    project.located = presence.located;
    let started = false;
    for (const stream of this.feed.streamsOf(projectId)) {
      if (stream.isStarted && !changed) continue;
      started ||= !stream.isStarted;
      stream.presence(presence.json);
    }
    if (started) this.feed.catchUp(projectId);
    this.expireAt(projectId, project, presence.nextExpiry);
  }

  private expireAt(projectId: string, project: ProjectPresence, at: number | undefined): void {
    clearTimeout(project.expiry);
    project.expiry = undefined;
    if (at === undefined) return;
    project.expiry = setTimeout(
      () => this.refresh(projectId),
      Math.max(0, at - Date.now()) + PAST_EXPIRY_MS,
    );
    project.expiry.unref();
  }

  private forget(projectId: string): void {
    clearTimeout(this.projects.get(projectId)?.expiry);
    this.projects.delete(projectId);
  }
}
