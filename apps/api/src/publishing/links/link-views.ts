import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { outsideAnyRequest } from '../../common/logging/request-context';
import { Database } from '../../database/database';
import { LinksRepository, type OpenedLink } from './links.repository';

/** How often an instance adds the views it counted to the links' rows. */
const FLUSH_EVERY_MS = 1000;

interface Counted {
  readonly projectId: string;
  readonly id: string;
  count: number;
  last: Date;
}

/**
 * The opens of share links, counted in this process and added to the links' rows in one
 * statement per interval (and at shutdown), so that an open costs no write of its own: a link
 * opened a thousand times a second costs one update a second per instance. The counts add up
 * across instances in the database; a listing first adds this instance's (see flush), and the
 * others' arrive within the interval. Counts a failed statement did not add are kept for the
 * next one.
 */
@Injectable()
export class LinkViews implements OnModuleDestroy {
  private readonly logger = new Logger('LinkViews');
  private pending = new Map<string, Counted>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Database,
    private readonly links: LinksRepository,
  ) {}

  /** One successful open of `link`, now. */
  count(link: OpenedLink): void {
    const key = `${link.projectId} ${link.id}`;
    const counted = this.pending.get(key);
    if (counted === undefined) {
      this.pending.set(key, { projectId: link.projectId, id: link.id, count: 1, last: new Date() });
    } else {
      counted.count += 1;
      counted.last = new Date();
    }
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_EVERY_MS).unref();
  }

  /** Adds what this instance counted so far to the links' rows; resolves once it is written. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    // One flush at a time: the next one takes what arrived meanwhile.
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  async onModuleDestroy(): Promise<void> {
    await this.flush();
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    try {
      await outsideAnyRequest(() =>
        this.links.addViews(this.db, {
          projectIds: batch.map((counted) => counted.projectId),
          ids: batch.map((counted) => counted.id),
          counts: batch.map((counted) => counted.count),
          times: batch.map((counted) => counted.last.toISOString()),
        }),
      );
    } catch (error) {
      for (const counted of batch) this.putBack(counted);
      this.timer ??= setTimeout(() => void this.flush(), FLUSH_EVERY_MS).unref();
      outsideAnyRequest(() =>
        this.logger.warn(`Adding share-link views failed (${String(error)}): trying again`),
      );
    }
  }

  private putBack(counted: Counted): void {
    const key = `${counted.projectId} ${counted.id}`;
    const later = this.pending.get(key);
    if (later === undefined) this.pending.set(key, counted);
    else later.count += counted.count;
  }
}
