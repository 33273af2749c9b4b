import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { NoticedEntries } from '../common/cache/noticed-entries';
import { type NoticeArrival, NoticeArrivals } from '../notifications/notice-arrivals';
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
  private readonly entries = new NoticedEntries<SignedInAccount>(TTL_MS, MAX_ENTRIES);
  private readonly arrivals: NoticeArrivals;
  private readonly unsubscribe: Unsubscribe[] = [];

  constructor(private readonly notifications: DatabaseNotifications) {
    this.arrivals = new NoticeArrivals(
      notifications,
      TOKEN_REVOCATIONS_CHANNEL,
      TOKEN_REVOCATIONS_HEARD_CHANNEL,
    );
  }

  onModuleInit(): void {
    this.unsubscribe.push(
      this.notifications.subscribe(TOKEN_REVOCATIONS_CHANNEL, {
        message: (payload) => this.revoked(payload),
        listening: () => this.restart(),
      }),
      this.arrivals.subscribe(),
    );
  }

  onModuleDestroy(): void {
    for (const unsubscribe of this.unsubscribe) unsubscribe();
  }

  get(tokenHash: string): SignedInAccount | undefined {
    return this.listening() ? this.entries.get(tokenHash) : undefined;
  }

  /** Taken before a lookup in the database, and handed to `set` with what it found. */
  currentGeneration(): number {
    return this.entries.generation();
  }

  set(tokenHash: string, account: SignedInAccount, tokenExpiresAt: Date, lookedUpAt: number): void {
    // What the lookup read may have been revoked since it began.
    if (!this.listening()) return;
    this.entries.set(tokenHash, account, lookedUpAt, tokenExpiresAt.getTime());
  }

  /** Drops what a revocation names, on this instance (the others hear the notification). */
  forget(revoked: Revoked): void {
    if ('tokenHash' in revoked) this.entries.dropKey(revoked.tokenHash);
    else
      this.entries.drop((tokenHash, account) =>
        revokes(revoked, { accountId: account.id, tokenHash }),
      );
  }

  /**
   * Before sending `notice`: lets the sender wait until the instances have dropped what it
   * names (see NoticeArrivals.expect).
   */
  expect(notice: RevocationNotice): NoticeArrival {
    return this.arrivals.expect(notice.nonce);
  }

  private revoked(payload: string): void {
    const notice = readRevocation(payload);
    // Unreadable (a newer version's notice?): whatever it revoked must not be served.
    if (!notice) {
      this.restart();
      return;
    }
    this.forget(notice.revoked);
    this.arrivals.confirm(notice.nonce);
  }

  private restart(): void {
    this.entries.clear();
  }

  private listening(): boolean {
    return this.notifications.isListening(TOKEN_REVOCATIONS_CHANNEL);
  }
}
