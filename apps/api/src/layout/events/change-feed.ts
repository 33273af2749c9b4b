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
import {
  readRevocation,
  revokes,
  TOKEN_REVOCATIONS_CHANNEL,
} from '../../accounts/token-revocations';
import { DatabaseNotifications, type Unsubscribe } from '../../notifications/notifications';
import { MEMBERSHIPS_CHANNEL, names, readMembershipNotice } from '../../members/membership-notices';
import { Metrics } from '../../metrics/metrics';
import { EventsRepository } from '../repositories/events.repository';
import { type EventStream } from './event-stream';

/** The channel on which a project's change is announced once committed: its id (ChangeAnnouncer). */
export const CHANGES_CHANNEL = 'layout_changes';

/** Revisions one read of the history brings at most (a stream far behind reads several). */
const BATCH = 500;

/**
 * What else a stream carries beside the changes: told of every stream that joins a project's
 * feed (which sends no change before it is started: see EventStream.presence) and leaves it,
 * and of every change of a project that has streams here (PresenceFeed).
 */
export interface StreamWatcher {
  joined(stream: EventStream): void;
  /** The stream is over, and its lease given back. */
  left(stream: EventStream): void;
  changed(projectId: string): void;
}

/** The streams of one project on this instance, and the read of its history that serves them. */
interface ProjectFeed {
  readonly projectId: string;
  readonly streams: Set<EventStream>;
  reading: boolean;
  /** Something happened while reading: read again once done. */
  again: boolean;
}

/**
 * Feeds this instance's event streams from the projects' history. A change's NOTIFY (sent once
 * it has committed, by the instance that wrote it) only says that a project has more: the
 * revisions themselves are read from the `revisions` table, after what the project's streams
 * have sent, one read at a time per project and shared by its streams. So a NOTIFY that is lost
 * or comes out of order loses nothing: the next read of the history fills the gap. Reads
 * happen on a NOTIFY, when listening starts again after a lost connection (whatever was sent
 * meanwhile was missed), and with every keep-alive, which bounds how late a revision whose
 * NOTIFY was lost arrives even if no other follows.
 *
 * The keep-alive also renews this instance's leases on its streams (the per-account count), and
 * ends those it could not renew: their token was revoked or their account's membership of the
 * project ended (either deletes the leases), or the token expired. A revocation's own notice,
 * and a membership's, ends the streams of its token, account or member at once; the renewal is
 * what catches one missed while this instance was not listening.
 */
@Injectable()
export class ChangeFeed implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('ChangeFeed');
  private readonly feeds = new Map<string, ProjectFeed>();
  private readonly kept: number;
  private readonly heartbeatMs: number;
  /** How long a stream's lease lasts without renewal. */
  readonly leaseMs: number;
  /** Leases being given back: the shutdown waits for them while the pool is still there. */
  private readonly releasing = new Set<Promise<void>>();
  private unsubscribe: Unsubscribe[] = [];
  private heartbeat: NodeJS.Timeout | undefined;
  private stopping = false;
  private watcher: StreamWatcher | undefined;

  constructor(
    private readonly db: Database,
    private readonly notifications: DatabaseNotifications,
    private readonly events: EventsRepository,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly metrics: Metrics,
  ) {
    this.kept = config.history.revisions;
    this.heartbeatMs = config.events.heartbeatMs;
    // Renewed with every keep-alive: two of them may be missed. A dead instance's leases lapse
    // within this, and its streams' accounts stop being present (20 s by default; 28 s at the
    // longest keep-alive allowed, 14 s).
    this.leaseMs = Math.max(2 * this.heartbeatMs, 20_000);
  }

  onModuleInit(): void {
    this.unsubscribe = [
      this.notifications.subscribe(CHANGES_CHANNEL, {
        message: (payload) => this.notified(payload),
        listening: () => this.readAll(),
      }),
      this.notifications.subscribe(TOKEN_REVOCATIONS_CHANNEL, {
        message: (payload) => this.revoked(payload),
        listening: () => this.renew(this.openStreamIds()),
      }),
      this.notifications.subscribe(MEMBERSHIPS_CHANNEL, {
        message: (payload) => this.membershipsChanged(payload),
        listening: () => this.renew(this.openStreamIds()),
      }),
    ];
    this.heartbeat = setInterval(() => this.beat(), this.heartbeatMs);
    this.heartbeat.unref();
  }

  /**
   * Ends what is still open (a shutdown ends the streams before, with the HTTP server) and gives
   * back the leases while the pool is still there.
   */
  async onModuleDestroy(): Promise<void> {
    clearInterval(this.heartbeat);
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    this.stopping = true;
    const ids: string[] = [];
    for (const feed of this.feeds.values()) {
      for (const stream of feed.streams) {
        ids.push(stream.owner.streamId);
        stream.end();
      }
    }
    await Promise.allSettled(this.releasing);
    await this.events.closeStreams(this.db, ids).catch((error: unknown) => {
      this.logger.warn(`Could not release the streams' leases: ${String(error)}`);
    });
  }

  /** Tells `watcher` of the streams and the changes (see StreamWatcher); one at most. */
  watch(watcher: StreamWatcher): void {
    this.watcher = watcher;
  }

  /** This instance's open streams of the project. */
  streamsOf(projectId: string): EventStream[] {
    return [...(this.feeds.get(projectId)?.streams ?? [])].filter((stream) => stream.isOpen);
  }

  /** The projects this instance has streams of. */
  projectIds(): string[] {
    return [...this.feeds.keys()];
  }

  /** Sends the project's started streams what they have not had yet (a stream just started). */
  catchUp(projectId: string): void {
    const feed = this.feeds.get(projectId);
    if (feed) this.read(feed);
  }

  /**
   * Feeds `stream` from now on, starting with what it missed, once its first event is sent (the
   * watcher's); until it closes.
   */
  add(stream: EventStream): void {
    const watcher = this.watcher;
    if (!watcher) throw new Error('ChangeFeed: a stream joined before anything watches them');
    const { projectId } = stream.owner;
    let feed = this.feeds.get(projectId);
    if (!feed) {
      feed = { projectId, streams: new Set(), reading: false, again: false };
      this.feeds.set(projectId, feed);
    }
    const streams = feed.streams;
    streams.add(stream);
    this.metrics.streamOpened();
    stream.onClose(() => {
      this.metrics.streamClosed();
      streams.delete(stream);
      if (streams.size === 0 && this.feeds.get(projectId)?.streams === streams) {
        this.feeds.delete(projectId);
      }
      this.release(stream);
    });
    watcher.joined(stream);
  }

  private notified(payload: string): void {
    const [projectId] = payload.split(' ');
    const feed = this.feeds.get(projectId);
    if (!feed) return;
    this.read(feed);
    this.watcher?.changed(projectId);
  }

  private readAll(): void {
    for (const feed of this.feeds.values()) this.read(feed);
  }

  /** A token or an account's tokens were revoked: their streams end (the clients reconnect). */
  private revoked(payload: string): void {
    const notice = readRevocation(payload);
    // Unreadable (a newer version's notice?): whatever it revoked must not stay open.
    const ends = (stream: EventStream) =>
      notice === undefined || revokes(notice.revoked, stream.owner);
    for (const stream of this.streams()) if (ends(stream)) stream.end();
  }

  /**
   * Memberships ended: their accounts' streams of the project end (a reconnection answers 404).
   * One that cannot be read renews every lease, which ends the streams of any ended membership.
   */
  private membershipsChanged(payload: string): void {
    const notice = readMembershipNotice(payload);
    if (notice === undefined) {
      this.renew(this.openStreamIds());
      return;
    }
    if (notice.change !== 'removed') return;
    const feed = this.feeds.get(notice.projectId);
    for (const stream of feed?.streams ?? []) {
      if (names(notice, stream.owner.projectId, stream.owner.accountId)) stream.end();
    }
  }

  private beat(): void {
    for (const stream of this.streams()) stream.keepAlive();
    this.readAll();
    this.renew(this.openStreamIds());
  }

  private renew(ids: string[]): void {
    if (ids.length === 0) return;
    outsideAnyRequest(() => this.events.renewStreams(this.db, ids, this.leaseMs)).then(
      (renewed) => this.endUnless(renewed, ids),
      (error: unknown) => this.logger.warn(`Could not renew the streams' leases: ${String(error)}`),
    );
  }

  private *streams(): Generator<EventStream> {
    for (const feed of this.feeds.values()) yield* feed.streams;
  }

  private openStreamIds(): string[] {
    return [...this.streams()].filter((s) => s.isOpen).map((s) => s.owner.streamId);
  }

  /**
   * Ends the streams of `ids` that were not renewed: their token was revoked (which deleted
   * their leases) or has expired, or their lease ran out and its slot went to another stream.
   * The client reconnects, and is asked for a valid token.
   */
  private endUnless(renewed: Set<string>, ids: string[]): void {
    const gone = new Set(ids.filter((id) => !renewed.has(id)));
    if (gone.size === 0) return;
    for (const stream of this.streams()) if (gone.has(stream.owner.streamId)) stream.end();
  }

  /** Reads the project's history after what its streams sent, until they have it all. */
  private read(feed: ProjectFeed): void {
    if (feed.reading) {
      feed.again = true;
      return;
    }
    feed.reading = true;
    void outsideAnyRequest(() => this.readUntilCurrent(feed)).finally(() => {
      feed.reading = false;
    });
  }

  private async readUntilCurrent(feed: ProjectFeed): Promise<void> {
    for (;;) {
      feed.again = false;
      const streams = [...feed.streams].filter((stream) => stream.isOpen && stream.isStarted);
      if (streams.length === 0) return;
      const after = Math.min(...streams.map((stream) => stream.sentUpTo));
      let history;
      try {
        history = await this.events.revisionsAfter(this.db, {
          projectId: feed.projectId,
          after,
          limit: BATCH,
          kept: this.kept,
        });
      } catch (error) {
        // The next NOTIFY or keep-alive reads again: nothing is lost meanwhile.
        this.logger.warn(`Could not read the history of a project: ${String(error)}`);
        return;
      }
      if (history === undefined) {
        // The project is gone: its streams end (a reconnection answers 404).
        for (const stream of streams) stream.end();
        return;
      }
      for (const stream of streams) stream.catchUp(history);
      const behind = streams.some((s) => s.isOpen && s.sentUpTo < history.current);
      if (!feed.again && !(behind && history.revisions.length === BATCH)) return;
    }
  }

  private release(stream: EventStream): void {
    if (this.stopping) return;
    const released: Promise<void> = outsideAnyRequest(() =>
      this.events.closeStreams(this.db, [stream.owner.streamId]),
    )
      .then(
        () => this.watcher?.left(stream),
        (error: unknown) => {
          // Its lease runs out by itself.
          this.logger.warn(`Could not release a stream's lease: ${String(error)}`);
        },
      )
      .finally(() => this.releasing.delete(released));
    this.releasing.add(released);
  }
}
