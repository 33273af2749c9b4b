import { Injectable } from '@nestjs/common';
import { type AuthenticatedAccount } from '../common/auth/authenticated-account';

// Short enough that nothing stale matters (tokens are never revoked before they expire today),
// long enough to spare a database round trip on nearly every request of a busy editor.
const TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;

/**
 * Recently verified bearer tokens (by their SHA-256), so that a burst of requests with one token
 * costs one lookup. An entry never outlives the token itself. Unknown tokens are not cached: they
 * are looked up each time. If tokens ever become revocable, revoke here too (or drop the cache).
 */
@Injectable()
export class AccessTokenCache {
  private readonly entries = new Map<string, { account: AuthenticatedAccount; until: number }>();

  get(tokenHash: string): AuthenticatedAccount | undefined {
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (Date.now() >= entry.until) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return entry.account;
  }

  set(tokenHash: string, account: AuthenticatedAccount, tokenExpiresAt: Date): void {
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    const until = Math.min(Date.now() + TTL_MS, tokenExpiresAt.getTime());
    this.entries.set(tokenHash, { account, until });
  }
}
