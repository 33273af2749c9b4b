import { Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { escapeIdentifier } from 'pg';
import { outsideAnyRequest } from '../common/logging/request-context';
import { type NotificationConnection } from './notification-connection';

/** One subscriber of a channel. */
export interface NotificationListener {
  /** A notification on the channel, sent by a transaction that has committed. */
  message(payload: string): void;
  /**
   * This instance listens on the channel from now on: at the first LISTEN and after every
   * reconnection. Whatever was sent before was missed, so what the subscriber learnt from
   * notifications may be stale: resynchronise here.
   */
  listening?(): void;
}

export type Unsubscribe = () => void;

/** Reconnection waits: doubling from the first, up to the last, with jitter. */
export interface NotificationTiming {
  readonly firstRetryMs: number;
  readonly maxRetryMs: number;
  /** How often the connection is checked with a statement, so that a silent loss is noticed. */
  readonly heartbeatMs: number;
  /** How long a closing connection may take to say goodbye. */
  readonly closeWaitMs: number;
}

export const NOTIFICATION_TIMING: NotificationTiming = {
  firstRetryMs: 100,
  maxRetryMs: 5_000,
  heartbeatMs: 5_000,
  closeWaitMs: 1_000,
};

// Lower-case identifiers only: LISTEN folds unquoted names to lower case and pg_notify() does
// not, so a name that needs quoting is a mistake waiting to happen.
const CHANNEL = /^[a-z][a-z0-9_]{0,62}$/;

/**
 * PostgreSQL LISTEN/NOTIFY for the whole instance, on one connection of its own (see
 * openNotificationConnection), shared by every subscriber: what one instance commits, every
 * instance hears.
 *
 * To send, run `SELECT pg_notify(<channel>, <payload>)` inside the transaction that makes the
 * change: PostgreSQL delivers it when, and only if, that transaction commits, in commit order,
 * to every session listening at that moment (`send` sends one at once, outside a transaction).
 * Every instance's connection bears the name NOTIFICATION_SESSION_NAME, so that counting those
 * sessions counts the instances that can hear. A session that is not listening (this one while
 * it reconnects) never receives it: subscribers learn when listening (re)starts, and can ask
 * `isListening` at any time, so that none of them trusts what it may have missed.
 *
 * After a lost connection it reconnects by itself, waiting longer each time; a statement every
 * few seconds notices a connection that died without a word. Starts listening when the
 * application has started, stops when it shuts down. (Made by DatabaseModule, which gives it
 * its connections.)
 */
export class DatabaseNotifications implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Notifications');
  private readonly subscribers = new Map<string, Set<NotificationListener>>();
  /** Channels whose LISTEN was sent on the current connection, and those it confirmed. */
  private readonly requested = new Set<string>();
  private readonly listened = new Set<string>();
  private connection: NotificationConnection | undefined;
  private connecting: Promise<void> | undefined;
  private retryMs: number;
  private retryTimer: NodeJS.Timeout | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  /** Since when the notifications are lost (logged once), or undefined. */
  private outage: string | undefined;
  private stopped = false;
  /** The last statement sent on the connection: the next one waits for it. */
  private sending: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly open: () => Promise<NotificationConnection>,
    private readonly timing: NotificationTiming = NOTIFICATION_TIMING,
  ) {
    this.retryMs = timing.firstRetryMs;
  }

  /**
   * Delivers the channel's notifications to `listener` until unsubscribed. When this instance
   * already listens on the channel, `listener.listening` is called right after this returns;
   * otherwise once it does.
   */
  subscribe(channel: string, listener: NotificationListener): Unsubscribe {
    if (!CHANNEL.test(channel)) throw new Error(`Not a channel name: ${JSON.stringify(channel)}`);
    // A wrapper per subscription, so that one listener subscribed twice is two subscriptions.
    const subscription: NotificationListener = {
      message: (payload) => listener.message(payload),
      listening: () => listener.listening?.(),
    };
    let listeners = this.subscribers.get(channel);
    if (!listeners) {
      listeners = new Set();
      this.subscribers.set(channel, listeners);
    }
    listeners.add(subscription);
    if (this.listened.has(channel)) {
      void Promise.resolve().then(() => {
        if (listeners.has(subscription)) this.tell(subscription, 'listening');
      });
    } else if (this.connection) {
      void this.listen(this.connection, channel);
    }
    return () => this.unsubscribe(channel, subscription);
  }

  /** Whether notifications on the channel reach this instance right now. */
  isListening(channel: string): boolean {
    return this.listened.has(channel);
  }

  /**
   * Sends a notification at once, outside any transaction, on this instance's own connection
   * (for what is not a change: an answer to another notification). False when it could not be
   * sent (no connection right now, or the connection failed).
   */
  send(channel: string, payload: string): Promise<boolean> {
    if (!CHANNEL.test(channel)) throw new Error(`Not a channel name: ${JSON.stringify(channel)}`);
    const connection = this.connection;
    if (!connection) return Promise.resolve(false);
    return this.run(connection, 'SELECT pg_notify($1, $2)', [channel, payload]);
  }

  /**
   * Sends one notification per payload with one statement (one round trip, one transaction):
   * as `send`, for many at once.
   */
  sendEach(channel: string, payloads: readonly string[]): Promise<boolean> {
    if (!CHANNEL.test(channel)) throw new Error(`Not a channel name: ${JSON.stringify(channel)}`);
    const connection = this.connection;
    if (!connection) return Promise.resolve(false);
    if (payloads.length === 0) return Promise.resolve(true);
    return this.run(
      connection,
      'SELECT pg_notify($1, payload) FROM unnest($2::text[]) AS payload',
      [channel, payloads],
    );
  }

  /** Waits for the first connection (or its failure: it then keeps trying in the background). */
  async onApplicationBootstrap(): Promise<void> {
    await this.connect();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearTimeout(this.heartbeatTimer);
    await this.connecting;
    const connection = this.connection;
    this.forget();
    await connection?.close(this.timing.closeWaitMs);
  }

  private unsubscribe(channel: string, subscription: NotificationListener): void {
    const listeners = this.subscribers.get(channel);
    if (!listeners?.delete(subscription) || listeners.size > 0) return;
    this.subscribers.delete(channel);
    this.listened.delete(channel);
    if (this.connection && this.requested.delete(channel)) {
      void this.run(this.connection, `UNLISTEN ${escapeIdentifier(channel)}`);
    }
  }

  private connect(): Promise<void> {
    this.connecting ??= this.openAndListen().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async openAndListen(): Promise<void> {
    let connection: NotificationConnection;
    try {
      connection = await this.open();
    } catch (error) {
      this.lost(error);
      return;
    }
    if (this.stopped) {
      await connection.close(this.timing.closeWaitMs);
      return;
    }
    this.connection = connection;
    connection.onNotification((channel, payload) => this.deliver(connection, channel, payload));
    connection.onClose((error) => this.drop(connection, error ?? new Error('connection ended')));
    const listened = await Promise.all(
      [...this.subscribers.keys()].map((channel) => this.listen(connection, channel)),
    );
    if (connection !== this.connection || listened.includes(false)) return;
    this.retryMs = this.timing.firstRetryMs;
    if (this.outage !== undefined) {
      outsideAnyRequest(() =>
        this.logger.log(`Listening to database notifications again (lost ${this.outage})`),
      );
      this.outage = undefined;
    }
    this.scheduleHeartbeat(connection);
  }

  /** LISTEN on `connection`; false when the connection failed meanwhile. */
  private async listen(connection: NotificationConnection, channel: string): Promise<boolean> {
    if (this.requested.has(channel)) return true;
    this.requested.add(channel);
    if (!(await this.run(connection, `LISTEN ${escapeIdentifier(channel)}`))) return false;
    const listeners = this.subscribers.get(channel);
    if (!listeners) {
      // Everybody unsubscribed while the LISTEN was on its way.
      if (this.requested.delete(channel)) {
        void this.run(connection, `UNLISTEN ${escapeIdentifier(channel)}`);
      }
      return true;
    }
    this.listened.add(channel);
    for (const listener of [...listeners]) this.tell(listener, 'listening');
    return true;
  }

  /**
   * Runs a statement on the connection, after the ones sent before it (pg deprecates queueing
   * several queries on one client); a failure drops the connection (and answers false).
   */
  private run(
    connection: NotificationConnection,
    sql: string,
    values?: readonly unknown[],
  ): Promise<boolean> {
    const ran = this.sending.then(async () => {
      try {
        await connection.query(sql, values);
        return connection === this.connection;
      } catch (error) {
        this.drop(connection, error);
        return false;
      }
    });
    this.sending = ran;
    return ran;
  }

  private deliver(connection: NotificationConnection, channel: string, payload: string): void {
    if (connection !== this.connection || !this.listened.has(channel)) return;
    for (const listener of [...(this.subscribers.get(channel) ?? [])]) {
      this.tell(listener, 'message', payload);
    }
  }

  /** Calls a subscriber; one that throws must not keep the others from hearing. */
  private tell(listener: NotificationListener, what: 'message' | 'listening', payload = ''): void {
    try {
      if (what === 'message') listener.message(payload);
      else listener.listening?.();
    } catch (error) {
      outsideAnyRequest(() =>
        this.logger.error(
          `A subscriber failed on a database notification: ${String(error)}`,
          error instanceof Error ? error.stack : undefined,
        ),
      );
    }
  }

  private scheduleHeartbeat(connection: NotificationConnection): void {
    clearTimeout(this.heartbeatTimer);
    this.heartbeatTimer = setTimeout(() => {
      void this.run(connection, 'SELECT 1').then((alive) => {
        if (alive) this.scheduleHeartbeat(connection);
      });
    }, this.timing.heartbeatMs);
    this.heartbeatTimer.unref();
  }

  /** The connection failed: nothing is heard until the next one listens. */
  private drop(connection: NotificationConnection, error: unknown): void {
    if (connection !== this.connection) return;
    this.forget();
    void connection.close(0);
    this.lost(error);
  }

  private forget(): void {
    this.connection = undefined;
    this.requested.clear();
    this.listened.clear();
    clearTimeout(this.heartbeatTimer);
  }

  private lost(error: unknown): void {
    if (this.stopped) return;
    if (this.outage === undefined) {
      this.outage = new Date().toISOString();
      const reason = error instanceof Error ? error.message : String(error);
      outsideAnyRequest(() =>
        this.logger.warn(
          `Not listening to database notifications (${reason}): reconnecting; meanwhile ` +
            'what depends on them goes to the database',
        ),
      );
    }
    const jitter = 0.5 + Math.random() / 2;
    this.retryTimer = setTimeout(() => void this.connect(), Math.round(this.retryMs * jitter));
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, this.timing.maxRetryMs);
  }
}
