import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { DatabaseNotifications, type Unsubscribe } from '../notifications/notifications';
import { type SignedInAccount } from './signed-in-account';
import {
  readRevocation,
  revokes,
  type RevocationNotice,
  type Revoked,
  TOKEN_REVOCATIONS_CHANNEL,
  TOKEN_REVOCATIONS_HEARD_CHANNEL,
} from './token-revocations';

// Spares a database round trip on nearly every request of a busy editor. A revocation reaches
// every instance's entries at once (below), so this only bounds how long a token that expires
// or is deleted behind the service's back (by an operator) may still be taken.
const TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  readonly account: SignedInAccount;
  readonly until: number;
}

/** Waits for the instances to say they dropped what a revocation named (see `expect`). */
export interface RevocationArrival {
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
 * Recently verified bearer tokens (by their SHA-256), so that a burst of requests with one token
 * costs one lookup. An entry never outlives the token itself, and no instance serves one that
 * was revoked: every revocation is a notification on TOKEN_REVOCATIONS_CHANNEL, sent by the
 * revoking transaction, which makes every instance drop the entries it names and then say so
 * on TOKEN_REVOCATIONS_HEARD_CHANNEL, so that the revoking request can wait for all of them.
 *
 * Entries are served only while this instance listens: a revocation sent while it does not is
 * never delivered, so the cache empties itself whenever listening (re)starts, and a lookup that
 * began before a revocation (or before a restart) does not store what it found.
 */
@Injectable()
export class AccessTokenCache implements OnModuleInit, OnModuleDestroy {
  private readonly entries = new Map<string, Entry>();
  /** Moves on at every revocation heard and every restart of listening. */
  private generation = 0;
  private readonly waiters = new Map<string, Waiter>();
  private readonly unsubscribe: Unsubscribe[] = [];

  constructor(private readonly notifications: DatabaseNotifications) {}

  onModuleInit(): void {
    this.unsubscribe.push(
      this.notifications.subscribe(TOKEN_REVOCATIONS_CHANNEL, {
        message: (payload) => this.revoked(payload),
        listening: () => this.restart(),
      }),
      this.notifications.subscribe(TOKEN_REVOCATIONS_HEARD_CHANNEL, {
        message: (nonce) => this.heardBy(nonce),
      }),
    );
  }

  onModuleDestroy(): void {
    for (const unsubscribe of this.unsubscribe) unsubscribe();
  }

  get(tokenHash: string): SignedInAccount | undefined {
    if (!this.listening()) return undefined;
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (Date.now() >= entry.until) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return entry.account;
  }

  /** Taken before a lookup in the database, and handed to `set` with what it found. */
  currentGeneration(): number {
    return this.generation;
  }

  set(tokenHash: string, account: SignedInAccount, tokenExpiresAt: Date, lookedUpAt: number): void {
    // What the lookup read may have been revoked since it began.
    if (lookedUpAt !== this.generation || !this.listening()) return;
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    const until = Math.min(Date.now() + TTL_MS, tokenExpiresAt.getTime());
    this.entries.set(tokenHash, { account, until });
  }

  /** Drops what a revocation names, on this instance (the others hear the notification). */
  forget(revoked: Revoked): void {
    this.generation += 1;
    if ('tokenHash' in revoked) {
      this.entries.delete(revoked.tokenHash);
      return;
    }
    for (const [tokenHash, entry] of this.entries) {
      if (revokes(revoked, { accountId: entry.account.id, tokenHash })) {
        this.entries.delete(tokenHash);
      }
    }
  }

  /**
   * Before sending `notice`: lets the sender wait until the instances have dropped what it
   * names. Called before the revoking transaction, since the answers may come back before its
   * own commit is acknowledged.
   */
  expect(notice: RevocationNotice): RevocationArrival {
    let done: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => (done = resolve));
    const waiter: Waiter = { heard: 0, wanted: Infinity, done };
    this.waiters.set(notice.nonce, waiter);
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
        this.waiters.delete(notice.nonce);
      },
    };
  }

  private revoked(payload: string): void {
    const notice = readRevocation(payload);
    // Unreadable (a newer version's notice?): whatever it revoked must not be served.
    if (!notice) {
      this.restart();
      return;
    }
    this.forget(notice.revoked);
    void this.notifications.send(TOKEN_REVOCATIONS_HEARD_CHANNEL, notice.nonce);
  }

  private heardBy(nonce: string): void {
    const waiter = this.waiters.get(nonce);
    if (!waiter) return;
    waiter.heard += 1;
    if (waiter.heard >= waiter.wanted) waiter.done();
  }

  private restart(): void {
    this.generation += 1;
    this.entries.clear();
  }

  private listening(): boolean {
    return this.notifications.isListening(TOKEN_REVOCATIONS_CHANNEL);
  }

  private hearing(): boolean {
    return this.listening() && this.notifications.isListening(TOKEN_REVOCATIONS_HEARD_CHANNEL);
  }
}
