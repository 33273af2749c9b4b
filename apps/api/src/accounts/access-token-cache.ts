import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { DatabaseNotifications, type Unsubscribe } from '../database/notifications';
import { type SignedInAccount } from './signed-in-account';
import {
  readRevocation,
  type RevocationNotice,
  type Revoked,
  TOKEN_REVOCATIONS_CHANNEL,
} from './token-revocation';

// Spares a database round trip on nearly every request of a busy editor. A revocation reaches
// every instance's entries at once (below), so this only bounds how long a token that expires
// or is deleted behind the service's back (by an operator) may still be taken.
const TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  readonly account: SignedInAccount;
  readonly until: number;
}

/** Waits for this instance to hear a revocation it sent (see AccessTokenCache.expect). */
export interface RevocationArrival {
  /** Resolves when it is heard, after `timeoutMs`, or at once when nothing is listening. */
  wait(timeoutMs: number): Promise<void>;
  cancel(): void;
}

/**
 * Recently verified bearer tokens (by their SHA-256), so that a burst of requests with one token
 * costs one lookup. An entry never outlives the token itself, and no instance serves one that
 * was revoked: every revocation is a notification on TOKEN_REVOCATIONS_CHANNEL, sent by the
 * revoking transaction, which drops the entries it names on every instance.
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
  private readonly arrivals = new Map<string, () => void>();
  private unsubscribe: Unsubscribe | undefined;

  constructor(private readonly notifications: DatabaseNotifications) {}

  onModuleInit(): void {
    this.unsubscribe = this.notifications.subscribe(TOKEN_REVOCATIONS_CHANNEL, {
      message: (payload) => this.heard(payload),
      listening: () => this.restart(),
    });
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
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
      if (entry.account.id === revoked.accountId) this.entries.delete(tokenHash);
    }
  }

  /**
   * Before sending `notice`: lets the sender wait until this instance has heard it back, which
   * PostgreSQL does for every listening instance at once, when the revoking transaction commits.
   */
  expect(notice: RevocationNotice): RevocationArrival {
    let heard = false;
    let resolveArrival: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => (resolveArrival = resolve));
    this.arrivals.set(notice.nonce, () => {
      heard = true;
      resolveArrival();
    });
    return {
      wait: async (timeoutMs) => {
        if (heard || !this.listening()) return;
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
        try {
          await Promise.race([arrived, late]);
        } finally {
          clearTimeout(timer);
        }
      },
      cancel: () => {
        this.arrivals.delete(notice.nonce);
      },
    };
  }

  private heard(payload: string): void {
    const notice = readRevocation(payload);
    // Unreadable (a newer version's notice?): whatever it revoked must not be served.
    if (!notice) {
      this.restart();
      return;
    }
    this.forget(notice.revoked);
    this.arrivals.get(notice.nonce)?.();
  }

  private restart(): void {
    this.generation += 1;
    this.entries.clear();
  }

  private listening(): boolean {
    return this.notifications.isListening(TOKEN_REVOCATIONS_CHANNEL);
  }
}
