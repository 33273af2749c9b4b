import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { AuthenticationRequiredError } from '../common/errors';
import {
  InvalidCredentialsError,
  RecentSignInRequiredError,
  SignUpDisabledError,
  WrongPasswordError,
} from './errors';
import { hashAccessToken, newAccessToken } from './access-token';
import { AccessTokenCache } from './access-token-cache';
import { AccountPurge } from './account-purge';
import {
  type AccountCredentials,
  type AccountRecord,
  AccountsRepository,
  type Revocation,
} from './accounts.repository';
import { type LoginAttempt, LoginAttemptLimiter } from './login-attempt-limiter';
import { PasswordHasher } from './password-hasher';
import { SIGN_IN_ADDRESS_MEMORY_MS, signInAddressDigest } from './sign-in-address';
import { type SignedInAccount } from './signed-in-account';
import { revocationNotice, type RevocationNotice, type Revoked } from './token-revocations';
import { usernameForNewAccount, usernameKey } from './username';

export interface IssuedToken {
  token: string;
  expiresInSeconds: number;
}

/** Deleting the account cannot be undone: it takes a token obtained this recently. */
export const RECENT_SIGN_IN_MINUTES = 5;

@Injectable()
export class AccountsService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly hasher: PasswordHasher,
    private readonly limiter: LoginAttemptLimiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly tokenCache: AccessTokenCache,
    private readonly purge: AccountPurge,
  ) {}

  async signUp(username: string, password: string): Promise<AccountRecord> {
    if (!this.config.auth.signUpEnabled) throw new SignUpDisabledError();
    return this.createAccount(username, password);
  }

  /**
   * Also used by the operators' command, which works when sign-up is switched off. Stores the
   * username normalised (see username.ts) with its key, which the unique index compares.
   */
  async createAccount(username: string, password: string): Promise<AccountRecord> {
    const normalized = usernameForNewAccount(username);
    const passwordHash = await this.hasher.hash(password);
    return this.accounts.create(normalized.username, normalized.key, passwordHash);
  }

  /** `clientAddress` is the address the request came from, for the failure counts. */
  async issueToken(
    username: string,
    password: string,
    clientAddress: string | undefined,
  ): Promise<IssuedToken> {
    let attempt: LoginAttempt = { usernameKey: usernameKey(username), address: clientAddress };
    let account: AccountCredentials | null | undefined;
    // While the username's failures over all addresses hold it back, an address the account
    // signed in from before still gets in: worth a lookup only then.
    if (this.limiter.usernameWaitMs(attempt) > 0) {
      account = await this.accounts.findCredentials(attempt.usernameKey);
      attempt = { ...attempt, trusted: account !== null && (await this.knows(account, attempt)) };
    }
    this.limiter.assertAllowed(attempt);
    // Counted before the slow check, so that parallel guesses cannot all pass the limit while
    // their hashes are computed; a success takes it back.
    this.limiter.recordAttempt(attempt);
    account ??= await this.accounts.findCredentials(attempt.usernameKey);
    const valid = account
      ? await this.hasher.verify(password, account.passwordHash)
      : await this.hasher.verifyAgainstNothing(password);
    if (!account || !valid) {
      this.limiter.recordFailure(attempt);
      throw new InvalidCredentialsError();
    }
    this.limiter.recordSuccess(attempt);

    const token = newAccessToken();
    const ttl = this.config.auth.tokenTtlSeconds;
    const issuedAt = Date.now();
    await this.accounts.storeSignIn({
      accountId: account.id,
      tokenHash: hashAccessToken(token),
      issuedAt: new Date(issuedAt),
      expiresAt: new Date(issuedAt + ttl * 1000),
      addressDigest: signInAddressDigest(account.id, clientAddress),
    });
    return { token, expiresInSeconds: ttl };
  }

  /** The account a bearer token belongs to, or null when it is unknown, expired or revoked. */
  async authenticate(token: string): Promise<SignedInAccount | null> {
    const tokenHash = hashAccessToken(token);
    const cached = this.tokenCache.get(tokenHash);
    if (cached) return cached;
    const lookedUpAt = this.tokenCache.currentGeneration();
    const found = await this.accounts.findByAccessToken(tokenHash, new Date());
    if (!found) return null;
    const account: SignedInAccount = {
      id: found.id,
      username: found.username,
      token: { hash: tokenHash, issuedAt: found.tokenIssuedAt },
    };
    this.tokenCache.set(tokenHash, account, found.tokenExpiresAt, lookedUpAt);
    return account;
  }

  /** The token of this request stops working, on every instance. */
  async signOut(caller: SignedInAccount): Promise<void> {
    await this.revoke({ tokenHash: caller.token.hash }, (notice) =>
      this.accounts.revokeToken(caller.token.hash, notice),
    );
  }

  /** Every token of the account stops working, on every instance. */
  async signOutEverywhere(caller: SignedInAccount): Promise<void> {
    await this.revoke({ accountId: caller.id }, (notice) =>
      this.accounts.revokeTokens(caller.id, notice),
    );
  }

  /**
   * Checks the current password as a sign-in does (the same failure counts: a guesser holding a
   * stolen token is slowed as one at the token endpoint), then stores the new one; every token
   * but the one of this request stops working. The request carries the owner's token, so the
   * username's failures elsewhere do not hold it back.
   */
  async changePassword(
    caller: SignedInAccount,
    currentPassword: string,
    newPassword: string,
    clientAddress: string | undefined,
  ): Promise<void> {
    const attempt: LoginAttempt = {
      usernameKey: usernameKey(caller.username),
      address: clientAddress,
      trusted: true,
    };
    this.limiter.assertAllowed(attempt);
    this.limiter.recordAttempt(attempt);
    const storedHash = await this.accounts.findPasswordHash(caller.id);
    if (storedHash === undefined) throw tokenGone();
    if (!(await this.hasher.verify(currentPassword, storedHash))) {
      this.limiter.recordFailure(attempt);
      throw new WrongPasswordError();
    }
    this.limiter.recordSuccess(attempt);
    const passwordHash = await this.hasher.hash(newPassword);
    const revoked = { accountId: caller.id, except: caller.token.hash };
    const changed = await this.revoke(revoked, (notice) =>
      this.accounts.changePassword(caller.id, passwordHash, caller.token.hash, notice),
    );
    if (!changed.applied) throw tokenGone();
  }

  /**
   * The account, its tokens and (right after) everything it owns are gone, and its username is
   * free again. It is marked deleted in one short transaction, whatever it stored: from then on
   * its tokens answer 401 on every instance and its projects exist for nobody; AccountPurge
   * deletes them afterwards, one project at a time.
   */
  async deleteAccount(caller: SignedInAccount): Promise<void> {
    const age = Date.now() - caller.token.issuedAt.getTime();
    if (age > RECENT_SIGN_IN_MINUTES * 60_000) {
      throw new RecentSignInRequiredError(RECENT_SIGN_IN_MINUTES);
    }
    const marked = await this.revoke({ accountId: caller.id }, (notice) =>
      this.accounts.markDeleted(caller.id, notice),
    );
    if (!marked.applied) throw tokenGone();
    this.purge.wake();
  }

  /**
   * Runs `write`, which sends `notice` in its transaction, then waits (within the database
   * deadline) until every instance that could hear it has said it dropped what it names: by
   * the time the caller hears of the revocation, no instance serves the revoked tokens from
   * its cache any more.
   */
  private async revoke(
    revoked: Revoked,
    write: (notice: RevocationNotice) => Promise<Revocation>,
  ): Promise<Revocation> {
    const notice = revocationNotice(revoked);
    const arrival = this.tokenCache.expect(notice);
    try {
      const revocation = await write(notice);
      this.tokenCache.forget(revoked);
      await arrival.wait(revocation.instances, this.config.database.timeoutMs);
      return revocation;
    } finally {
      arrival.cancel();
    }
  }

  /** Whether the account signed in from the attempt's address recently. */
  private knows(account: AccountCredentials, attempt: LoginAttempt): Promise<boolean> {
    const digest = signInAddressDigest(account.id, attempt.address);
    if (digest === undefined) return Promise.resolve(false);
    const since = new Date(Date.now() - SIGN_IN_ADDRESS_MEMORY_MS);
    return this.accounts.isSignInAddress(account.id, digest, since);
  }
}

/** The account went away while the request ran (deleted elsewhere): its token with it. */
function tokenGone(): AuthenticationRequiredError {
  return new AuthenticationRequiredError('The bearer token is unknown or expired', 'invalid_token');
}
