import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { InvalidCredentialsError, SignUpDisabledError } from '../common/errors';
import { hashAccessToken, newAccessToken } from './access-token';
import { AccessTokenCache } from './access-token-cache';
import { type AccountRecord, AccountsRepository } from './accounts.repository';
import { type AuthenticatedAccount } from '../common/auth/authenticated-account';
import { type LoginAttempt, LoginAttemptLimiter } from './login-attempt-limiter';
import { PasswordHasher } from './password-hasher';
import { usernameForNewAccount, usernameKey } from './username';

export interface IssuedToken {
  token: string;
  expiresInSeconds: number;
}

@Injectable()
export class AccountsService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly hasher: PasswordHasher,
    private readonly limiter: LoginAttemptLimiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly tokenCache: AccessTokenCache = new AccessTokenCache(),
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
    const attempt: LoginAttempt = { usernameKey: usernameKey(username), address: clientAddress };
    this.limiter.assertAllowed(attempt);
    // Counted before the slow check, so that parallel guesses cannot all pass the limit while
    // their hashes are computed; a success takes it back.
    this.limiter.recordAttempt(attempt);
    const account = await this.accounts.findCredentials(attempt.usernameKey);
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
    await this.accounts.storeAccessToken(
      account.id,
      hashAccessToken(token),
      new Date(Date.now() + ttl * 1000),
    );
    return { token, expiresInSeconds: ttl };
  }

  /** The account a bearer token belongs to, or null when it is unknown or expired. */
  async authenticate(token: string): Promise<AuthenticatedAccount | null> {
    const tokenHash = hashAccessToken(token);
    const cached = this.tokenCache.get(tokenHash);
    if (cached) return cached;
    const found = await this.accounts.findByAccessToken(tokenHash, new Date());
    if (!found) return null;
    const account = { id: found.id, username: found.username };
    // A repository without an expiry (older callers, tests) simply is not cached.
    if (found.tokenExpiresAt instanceof Date) {
      this.tokenCache.set(tokenHash, account, found.tokenExpiresAt);
    }
    return account;
  }
}
