import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { type NotificationConnection } from './notification-connection';
import { DatabaseNotifications, type NotificationTiming } from './notifications';

const TIMING: NotificationTiming = {
  firstRetryMs: 100,
  maxRetryMs: 800,
  heartbeatMs: 1_000,
  closeWaitMs: 50,
};

/** A connection that records its statements and is told from outside when to fail. */
class FakeConnection implements NotificationConnection {
  readonly statements: string[] = [];
  readonly values: Array<readonly unknown[] | undefined> = [];
  closed = false;
  /** Set: the next statement fails with it. */
  failNext: Error | undefined;
  /** Set: statements never answer (a server that froze). */
  silent = false;
  private notify: ((channel: string, payload: string) => void) | undefined;
  private ended: ((error?: Error) => void) | undefined;

  query(sql: string, values?: readonly unknown[]): Promise<void> {
    this.statements.push(sql);
    this.values.push(values);
    if (this.silent) return new Promise<void>(() => undefined);
    const failure = this.failNext;
    this.failNext = undefined;
    return failure ? Promise.reject(failure) : Promise.resolve();
  }
  onNotification(handler: (channel: string, payload: string) => void): void {
    this.notify = handler;
  }
  onClose(handler: (error?: Error) => void): void {
    this.ended = handler;
  }
  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }

  /** PostgreSQL delivering a notification on this connection. */
  send(channel: string, payload: string): void {
    this.notify?.(channel, payload);
  }
  /** The server or the network ending the connection. */
  breakOff(): void {
    this.ended?.(new Error('Connection terminated unexpectedly'));
  }
}

/** Opens fake connections, or refuses while `refusing`. */
function connections() {
  const opened: FakeConnection[] = [];
  const state = { refusing: false, attempts: 0 };
  const open = () => {
    state.attempts += 1;
    if (state.refusing) return Promise.reject(new Error('connect ECONNREFUSED'));
    const connection = new FakeConnection();
    opened.push(connection);
    return Promise.resolve(connection);
  };
  return { open, opened, state, last: () => opened[opened.length - 1] };
}

/** Lets the promises queued by a fake connection settle. */
const settle = async () => {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
};

function recorder() {
  const heard: string[] = [];
  let listenings = 0;
  return {
    heard,
    listenings: () => listenings,
    listener: {
      message: (payload: string) => heard.push(payload),
      listening: () => (listenings += 1),
    },
  };
}

describe('DatabaseNotifications', () => {
  let notifications: DatabaseNotifications | undefined;

  beforeEach(() => {
    jest.useFakeTimers();
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
  });
  afterEach(async () => {
    await notifications?.onModuleDestroy();
    notifications = undefined;
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('listens on the channels subscribed before the start, and delivers their notifications only', async () => {
    const { open, last } = connections();
    notifications = new DatabaseNotifications(open, TIMING);
    const tokens = recorder();
    const others = recorder();
    notifications.subscribe('tokens', tokens.listener);
    notifications.subscribe('others', others.listener);
    expect(notifications.isListening('tokens')).toBe(false);

    await notifications.onApplicationBootstrap();
    expect(last().statements).toEqual(['LISTEN "tokens"', 'LISTEN "others"']);
    expect(notifications.isListening('tokens')).toBe(true);
    expect([tokens.listenings(), others.listenings()]).toEqual([1, 1]);

    last().send('tokens', 'a');
    last().send('others', 'b');
    last().send('unknown', 'c');
    expect(tokens.heard).toEqual(['a']);
    expect(others.heard).toEqual(['b']);
  });

  it('listens at once on a channel subscribed later, and tells its subscriber when it does', async () => {
    const { open, last } = connections();
    notifications = new DatabaseNotifications(open, TIMING);
    await notifications.onApplicationBootstrap();
    const first = recorder();
    notifications.subscribe('events', first.listener);
    await settle();
    expect(last().statements).toEqual(['LISTEN "events"']);
    expect(first.listenings()).toBe(1);

    // A second subscriber of a channel already listened to: no second LISTEN, told right away.
    const second = recorder();
    notifications.subscribe('events', second.listener);
    await settle();
    expect(last().statements).toEqual(['LISTEN "events"']);
    expect(second.listenings()).toBe(1);
    last().send('events', 'x');
    expect([first.heard, second.heard]).toEqual([['x'], ['x']]);
  });

  it('stops listening when the last subscriber leaves', async () => {
    const { open, last } = connections();
    notifications = new DatabaseNotifications(open, TIMING);
    const one = recorder();
    const two = recorder();
    const unsubscribeOne = notifications.subscribe('events', one.listener);
    const unsubscribeTwo = notifications.subscribe('events', two.listener);
    await notifications.onApplicationBootstrap();

    unsubscribeOne();
    last().send('events', 'only two');
    unsubscribeTwo();
    await settle();
    last().send('events', 'nobody');
    expect(one.heard).toEqual([]);
    expect(two.heard).toEqual(['only two']);
    expect(last().statements).toEqual(['LISTEN "events"', 'UNLISTEN "events"']);
    expect(notifications.isListening('events')).toBe(false);
  });

  it('is not listening while the connection is lost, reconnects, and tells the subscribers to resynchronise', async () => {
    const { open, opened, state, last } = connections();
    notifications = new DatabaseNotifications(open, TIMING);
    const tokens = recorder();
    notifications.subscribe('tokens', tokens.listener);
    await notifications.onApplicationBootstrap();

    state.refusing = true;
    opened[0].breakOff();
    expect(notifications.isListening('tokens')).toBe(false);
    expect(opened[0].closed).toBe(true);
    // What the old connection still delivers is not trusted.
    opened[0].send('tokens', 'late');
    expect(tokens.heard).toEqual([]);

    // Refused twice: the waits double (with jitter, between half and all of the wait).
    await jest.advanceTimersByTimeAsync(TIMING.firstRetryMs);
    expect(state.attempts).toBe(2);
    await jest.advanceTimersByTimeAsync(2 * TIMING.firstRetryMs);
    expect(state.attempts).toBe(3);
    expect(notifications.isListening('tokens')).toBe(false);

    state.refusing = false;
    await jest.advanceTimersByTimeAsync(4 * TIMING.firstRetryMs);
    expect(opened).toHaveLength(2);
    expect(last().statements).toEqual(['LISTEN "tokens"']);
    expect(notifications.isListening('tokens')).toBe(true);
    expect(tokens.listenings()).toBe(2);
    last().send('tokens', 'again');
    expect(tokens.heard).toEqual(['again']);
  });

  it('notices a connection that stopped answering, by its heartbeat', async () => {
    const { open, opened } = connections();
    notifications = new DatabaseNotifications(open, TIMING);
    notifications.subscribe('tokens', recorder().listener);
    await notifications.onApplicationBootstrap();

    await jest.advanceTimersByTimeAsync(TIMING.heartbeatMs);
    expect(opened[0].statements).toEqual(['LISTEN "tokens"', 'SELECT 1']);
    expect(notifications.isListening('tokens')).toBe(true);

    // The deadline of the statement is the connection's: it rejects.
    opened[0].failNext = new Error('Query read timeout');
    await jest.advanceTimersByTimeAsync(TIMING.heartbeatMs);
    expect(notifications.isListening('tokens')).toBe(false);
    expect(opened[0].closed).toBe(true);
    await jest.advanceTimersByTimeAsync(TIMING.firstRetryMs);
    expect(opened).toHaveLength(2);
    expect(notifications.isListening('tokens')).toBe(true);
  });

  it('drops the connection when a LISTEN fails, and listens on the next one', async () => {
    const { open, opened } = connections();
    notifications = new DatabaseNotifications(open, TIMING);
    await notifications.onApplicationBootstrap();
    opened[0].failNext = new Error('Connection terminated');
    const events = recorder();
    notifications.subscribe('events', events.listener);
    await settle();
    expect(notifications.isListening('events')).toBe(false);
    await jest.advanceTimersByTimeAsync(TIMING.firstRetryMs);
    expect(opened[1].statements).toEqual(['LISTEN "events"']);
    expect(events.listenings()).toBe(1);
  });

  it('keeps delivering to the others when one subscriber throws', async () => {
    const { open, last } = connections();
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    notifications = new DatabaseNotifications(open, TIMING);
    notifications.subscribe('events', {
      message: () => {
        throw new Error('boom');
      },
    });
    const fine = recorder();
    notifications.subscribe('events', fine.listener);
    await notifications.onApplicationBootstrap();
    last().send('events', 'x');
    expect(fine.heard).toEqual(['x']);
    expect(Logger.prototype.error).toHaveBeenCalledTimes(1);
  });

  it('starts even when the database refuses, and keeps trying in the background', async () => {
    const { open, state } = connections();
    state.refusing = true;
    notifications = new DatabaseNotifications(open, TIMING);
    notifications.subscribe('tokens', recorder().listener);
    await notifications.onApplicationBootstrap();
    expect(notifications.isListening('tokens')).toBe(false);
    state.refusing = false;
    await jest.advanceTimersByTimeAsync(TIMING.firstRetryMs);
    expect(notifications.isListening('tokens')).toBe(true);
  });

  it('closes its connection on shutdown and never reconnects after', async () => {
    const { open, opened, state } = connections();
    notifications = new DatabaseNotifications(open, TIMING);
    notifications.subscribe('tokens', recorder().listener);
    await notifications.onApplicationBootstrap();
    await notifications.onModuleDestroy();
    expect(opened[0].closed).toBe(true);
    expect(notifications.isListening('tokens')).toBe(false);
    opened[0].breakOff();
    await jest.advanceTimersByTimeAsync(10 * TIMING.maxRetryMs);
    expect(state.attempts).toBe(1);
  });

  it('sends a notification at once on its own connection, and says when it cannot', async () => {
    const { open, state, last } = connections();
    notifications = new DatabaseNotifications(open, TIMING);
    state.refusing = true;
    await notifications.onApplicationBootstrap();
    await expect(notifications.send('heard', 'n1')).resolves.toBe(false);
    state.refusing = false;
    await jest.advanceTimersByTimeAsync(TIMING.firstRetryMs);
    await expect(notifications.send('heard', 'n2')).resolves.toBe(true);
    expect(last().statements).toEqual(['SELECT pg_notify($1, $2)']);
    expect(last().values).toEqual([['heard', 'n2']]);
    last().failNext = new Error('Connection terminated');
    await expect(notifications.send('heard', 'n3')).resolves.toBe(false);
    expect(last().closed).toBe(true);
  });

  it('sends many notifications in one statement, and nothing for none', async () => {
    const { open, last } = connections();
    notifications = new DatabaseNotifications(open, TIMING);
    await notifications.onApplicationBootstrap();
    await expect(notifications.sendEach('heard', [])).resolves.toBe(true);
    expect(last().statements).toEqual([]);
    await expect(notifications.sendEach('heard', ['p1', 'p2'])).resolves.toBe(true);
    expect(last().statements).toEqual([
      'SELECT pg_notify($1, payload) FROM unnest($2::text[]) AS payload',
    ]);
    expect(last().values).toEqual([['heard', ['p1', 'p2']]]);
    last().failNext = new Error('Connection terminated');
    await expect(notifications.sendEach('heard', ['p3'])).resolves.toBe(false);
    expect(last().closed).toBe(true);
    await expect(notifications.sendEach('heard', ['p4'])).resolves.toBe(false);
  });

  it('refuses a channel name that LISTEN would fold or that needs quoting', () => {
    notifications = new DatabaseNotifications(connections().open, TIMING);
    for (const name of ['Tokens', 'token revoked', '', 'x'.repeat(64), '1st']) {
      expect(() => notifications?.subscribe(name, recorder().listener)).toThrow(/channel/);
    }
  });
});
