import { DatabaseNotifications, type Unsubscribe } from './notifications';

/** Waits for the instances to say they acted on one notice (see NoticeArrivals.expect). */
export interface NoticeArrival {
  /**
   * Resolves once `instances` instances (this one included) have said so, after `timeoutMs`
   * at the latest, or at once when this instance does not hear them.
   */
  wait(instances: number, timeoutMs: number): Promise<void>;
  cancel(): void;
}

interface Waiter {
  heard: number;
  wanted: number;
  done: () => void;
}

/**
 * The answers to notices that every instance must act on before their sender may answer its
 * request (a token revoked, a membership ended): each instance that acts on a notice says so
 * on `heardChannel` with the notice's nonce (`confirm`), and the sending instance counts them
 * (`expect`), against the number of instances listening when the notice was sent (counted in
 * the sending transaction: `pg_stat_activity`, see NOTIFICATION_SESSION_NAME).
 */
export class NoticeArrivals {
  private readonly waiters = new Map<string, Waiter>();

  /** `noticeChannel` carries the notices, `heardChannel` the answers. */
  constructor(
    private readonly notifications: DatabaseNotifications,
    private readonly noticeChannel: string,
    private readonly heardChannel: string,
  ) {}

  /** Counts the answers until unsubscribed. */
  subscribe(): Unsubscribe {
    return this.notifications.subscribe(this.heardChannel, {
      message: (nonce) => this.heardBy(nonce),
    });
  }

  /** This instance has acted on the notice of `nonce`. */
  confirm(nonce: string): void {
    void this.notifications.send(this.heardChannel, nonce);
  }

  /**
   * Before sending the notice of `nonce`: lets the sender wait until the instances have acted
   * on it. Called before the sending transaction, since the answers may come back before its
   * own commit is acknowledged.
   */
  expect(nonce: string): NoticeArrival {
    let done: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => (done = resolve));
    const waiter: Waiter = { heard: 0, wanted: Infinity, done };
    this.waiters.set(nonce, waiter);
    return {
      wait: async (instances, timeoutMs) => {
        if (!this.hearing()) return;
        waiter.wanted = instances;
        if (waiter.heard >= waiter.wanted) return;
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
        try {
          await Promise.race([arrived, late]);
        } finally {
          clearTimeout(timer);
        }
      },
      cancel: () => {
        this.waiters.delete(nonce);
      },
    };
  }

  private heardBy(nonce: string): void {
    const waiter = this.waiters.get(nonce);
    if (!waiter) return;
    waiter.heard += 1;
    if (waiter.heard >= waiter.wanted) waiter.done();
  }

  private hearing(): boolean {
    return (
      this.notifications.isListening(this.noticeChannel) &&
      this.notifications.isListening(this.heardChannel)
    );
  }
}
