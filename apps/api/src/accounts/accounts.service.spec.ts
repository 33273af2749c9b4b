import { loadConfig } from '../config/load-config';
import { createHash } from 'node:crypto';
import { jest } from '@jest/globals';
import { AuthenticationRequiredError, RequestValidationError } from '../common/errors';
import {
  InvalidCredentialsError,
  RecentSignInRequiredError,
  SignUpDisabledError,
  TooManyLoginAttemptsError,
  WrongPasswordError,
} from './errors';
import { type AppConfig } from '../config/app-config';
import {
  type DatabaseNotifications,
  type NotificationListener,
} from '../notifications/notifications';
import { hashAccessToken } from './access-token';
import { AccessTokenCache } from './access-token-cache';
import { type AccountPurge } from './account-purge';
import { type AccountCredentials, type AccountsRepository } from './accounts.repository';
import { AccountsService } from './accounts.service';
import { type LoginAttempt, LoginAttemptLimiter } from './login-attempt-limiter';
import { PasswordHasher } from './password-hasher';
import { signInAddressDigest } from './sign-in-address';
import { type SignedInAccount } from './signed-in-account';
import {
  readRevocation,
  type RevocationNotice,
  TOKEN_REVOCATIONS_CHANNEL,
  TOKEN_REVOCATIONS_HEARD_CHANNEL,
} from './token-revocations';

const PASSWORD = 'correct horse battery staple';
const NOW = Date.parse('2025-03-01T12:00:00Z');
const ADDRESS = '203.0.113.7';
const ALICE_HERE: LoginAttempt = { usernameKey: 'alice', address: ADDRESS };

function configWith(auth: Partial<AppConfig['auth']> = {}): AppConfig {
  const defaults = loadConfig({});
  return { ...defaults, auth: { ...defaults.auth, ...auth } };
}

function repositoryMock() {
  return {
    create: jest.fn<AccountsRepository['create']>(),
    findCredentials: jest.fn<AccountsRepository['findCredentials']>(),
    findPasswordHash: jest.fn<AccountsRepository['findPasswordHash']>(),
    storeSignIn: jest.fn<AccountsRepository['storeSignIn']>(),
    isSignInAddress: jest.fn<AccountsRepository['isSignInAddress']>(),
    findByAccessToken: jest.fn<AccountsRepository['findByAccessToken']>(),
    revokeToken: jest.fn<AccountsRepository['revokeToken']>(),
    revokeTokens: jest.fn<AccountsRepository['revokeTokens']>(),
    changePassword: jest.fn<AccountsRepository['changePassword']>(),
    markDeleted: jest.fn<AccountsRepository['markDeleted']>(),
  };
}

/**
 * The instance's LISTEN connection, as the token cache sees it: listening, and what it hears,
 * including what it sends itself (as PostgreSQL delivers a session's own notifications).
 */
function notificationsStub() {
  const listeners = new Map<string, NotificationListener[]>();
  const stub = {
    listening: true,
    subscribe: (channel: string, listener: NotificationListener) => {
      listeners.set(channel, [...(listeners.get(channel) ?? []), listener]);
      return () => undefined;
    },
    isListening: () => stub.listening,
    send: (channel: string, payload: string) => {
      stub.deliver(channel, payload);
      return Promise.resolve(true);
    },
    /** PostgreSQL delivering a notification (a revocation's, when its transaction commits). */
    deliver: (channel: string, payload: string) => {
      for (const listener of listeners.get(channel) ?? []) listener.message(payload);
    },
  };
  return stub;
}

const TOKEN_HASH = hashAccessToken('the-token');
const found = (overrides: { tokenIssuedAt?: Date; tokenExpiresAt?: Date } = {}) => ({
  id: 'acc-1',
  username: 'Alice',
  createdAt: new Date(),
  tokenIssuedAt: overrides.tokenIssuedAt ?? new Date(Date.now()),
  tokenExpiresAt: overrides.tokenExpiresAt ?? new Date(Date.now() + 3_600_000),
});

describe('AccountsService', () => {
  const hasher = new PasswordHasher();
  let credentials: AccountCredentials;
  let repository: ReturnType<typeof repositoryMock>;
  let limiter: LoginAttemptLimiter;
  let notifications: ReturnType<typeof notificationsStub>;
  let cache: AccessTokenCache;
  let purge: { wake: jest.Mock<AccountPurge['wake']> };

  const serviceWith = (config: AppConfig = configWith(), passwords: PasswordHasher = hasher) =>
    new AccountsService(
      repository as unknown as AccountsRepository,
      passwords,
      limiter,
      config,
      cache,
      purge as unknown as AccountPurge,
    );

  beforeAll(async () => {
    credentials = {
      id: 'acc-1',
      username: 'Alice',
      createdAt: new Date('2025-01-01T00:00:00Z'),
      passwordHash: await hasher.hash(PASSWORD),
    };
  });

  beforeEach(() => {
    repository = repositoryMock();
    repository.storeSignIn.mockResolvedValue(undefined);
    limiter = new LoginAttemptLimiter();
    notifications = notificationsStub();
    cache = new AccessTokenCache(notifications as unknown as DatabaseNotifications);
    cache.onModuleInit();
    purge = { wake: jest.fn<AccountPurge['wake']>() };
    // Each revoking transaction commits with this instance alone listening, and PostgreSQL
    // delivers its notice.
    const commits = (notice: RevocationNotice) => {
      notifications.deliver(notice.channel, notice.payload);
      return Promise.resolve({ applied: true, instances: 1 });
    };
    repository.revokeToken.mockImplementation((_hash, notice) => commits(notice));
    repository.revokeTokens.mockImplementation((_id, notice) => commits(notice));
    repository.changePassword.mockImplementation((_id, _hash, _kept, notice) => commits(notice));
    repository.markDeleted.mockImplementation((_id, notice) => commits(notice));
  });

  afterEach(() => jest.restoreAllMocks());

  describe('signUp', () => {
    it('throws SignUpDisabledError when sign-up is switched off, without creating anything', async () => {
      const service = serviceWith(configWith({ signUpEnabled: false }));
      await expect(service.signUp('alice', PASSWORD)).rejects.toBeInstanceOf(SignUpDisabledError);
      expect(repository.create).not.toHaveBeenCalled();
    });

    it('stores the normalised username, its key and a scrypt hash, never the password', async () => {
      const record = { id: 'acc-2', username: 'Café', createdAt: new Date() };
      repository.create.mockResolvedValue(record);
      await expect(serviceWith().signUp(' \uff23AFE\u0301 ', PASSWORD)).resolves.toBe(record);

      expect(repository.create).toHaveBeenCalledTimes(1);
      const [username, key, passwordHash] = repository.create.mock.calls[0];
      expect(username).toBe('CAF\u00c9');
      expect(key).toBe('caf\u00e9');
      expect(passwordHash).toMatch(/^scrypt\$/);
      expect(passwordHash).not.toContain(PASSWORD);
      await expect(hasher.verify(PASSWORD, passwordHash)).resolves.toBe(true);
    });

    it.each(['al ice', 'alice\u0007', 'ab'])(
      'refuses %j with a validation error at /username, creating nothing',
      async (username) => {
        const refusal = await serviceWith()
          .createAccount(username, PASSWORD)
          .catch((caught: unknown) => caught);
        expect(refusal).toBeInstanceOf(RequestValidationError);
        expect((refusal as RequestValidationError).errors).toEqual([
          { pointer: '/username', detail: expect.any(String) },
        ]);
        expect(repository.create).not.toHaveBeenCalled();
      },
    );

    it('lets operators create accounts when sign-up is switched off', async () => {
      const record = { id: 'acc-3', username: 'ops', createdAt: new Date() };
      repository.create.mockResolvedValue(record);
      const service = serviceWith(configWith({ signUpEnabled: false }));
      await expect(service.createAccount('ops', PASSWORD)).resolves.toBe(record);
    });
  });

  describe('issueToken', () => {
    it('stores only the SHA-256 of the token, with expiry now + ttl', async () => {
      jest.spyOn(Date, 'now').mockReturnValue(NOW);
      repository.findCredentials.mockResolvedValue(credentials);
      const service = serviceWith(configWith({ tokenTtlSeconds: 900 }));

      const { token, expiresInSeconds } = await service.issueToken(
        ' ＡＬＩＣＥ',
        PASSWORD,
        ADDRESS,
      );

      expect(expiresInSeconds).toBe(900);
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(repository.findCredentials).toHaveBeenCalledWith('alice');
      expect(repository.storeSignIn).toHaveBeenCalledTimes(1);
      const [signIn] = repository.storeSignIn.mock.calls[0];
      expect(signIn).toEqual({
        accountId: 'acc-1',
        tokenHash: hashAccessToken(token),
        issuedAt: new Date(NOW),
        expiresAt: new Date(NOW + 900 * 1000),
        addressDigest: signInAddressDigest('acc-1', ADDRESS),
      });
      expect(signIn.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
      // Neither the token nor the address itself reaches the repository.
      const everything = JSON.stringify(repository.storeSignIn.mock.calls);
      expect(everything).not.toContain(token);
      expect(everything).not.toContain(ADDRESS);
    });

    it('issues a different token each time', async () => {
      repository.findCredentials.mockResolvedValue(credentials);
      const service = serviceWith();
      const first = await service.issueToken('alice', PASSWORD, ADDRESS);
      const second = await service.issueToken('alice', PASSWORD, ADDRESS);
      expect(first.token).not.toBe(second.token);
    });

    it('throws InvalidCredentialsError for a wrong password and stores no token', async () => {
      repository.findCredentials.mockResolvedValue(credentials);
      const attempt = jest.spyOn(limiter, 'recordAttempt');
      const failure = jest.spyOn(limiter, 'recordFailure');
      await expect(
        serviceWith().issueToken('Alice', 'wrong password', ADDRESS),
      ).rejects.toBeInstanceOf(InvalidCredentialsError);
      expect(repository.storeSignIn).not.toHaveBeenCalled();
      expect(attempt).toHaveBeenCalledWith(ALICE_HERE);
      expect(failure).toHaveBeenCalledWith(ALICE_HERE);
    });

    it('throws the same InvalidCredentialsError for an unknown username', async () => {
      repository.findCredentials.mockResolvedValue(null);
      const failure = jest.spyOn(limiter, 'recordFailure');
      const unknown = await serviceWith()
        .issueToken('nobody', PASSWORD, ADDRESS)
        .catch((caught: unknown) => caught);
      expect(unknown).toBeInstanceOf(InvalidCredentialsError);
      expect((unknown as Error).message).toBe(new InvalidCredentialsError().message);
      expect(repository.storeSignIn).not.toHaveBeenCalled();
      expect(failure).toHaveBeenCalledWith({ usernameKey: 'nobody', address: ADDRESS });
    });

    it('makes the address wait once its failures are past the free ones, before checking anything', async () => {
      repository.findCredentials.mockResolvedValue(credentials);
      const service = serviceWith();
      const outcomes: unknown[] = [];
      for (let i = 0; i < 7; i += 1) {
        outcomes.push(
          await service
            .issueToken('ALICE', `guess ${i}`, ADDRESS)
            .catch((caught: unknown) => caught),
        );
      }
      expect(outcomes.slice(0, 6).every((o) => o instanceof InvalidCredentialsError)).toBe(true);
      expect(outcomes[6]).toBeInstanceOf(TooManyLoginAttemptsError);
      expect(repository.findCredentials).toHaveBeenCalledTimes(6);

      const error = await service
        .issueToken('alice', PASSWORD, ADDRESS)
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(TooManyLoginAttemptsError);
      expect((error as TooManyLoginAttemptsError).retryAfterSeconds).toBeGreaterThan(0);
      expect(repository.findCredentials).toHaveBeenCalledTimes(6);
      expect(repository.storeSignIn).not.toHaveBeenCalled();

      // The owner, elsewhere, is not held back by them.
      await expect(service.issueToken('alice', PASSWORD, '198.51.100.9')).resolves.toMatchObject({
        expiresInSeconds: 3600,
      });
    });

    it('clears the count of the username at that address on success', async () => {
      for (let i = 0; i < 5; i += 1) limiter.recordAttempt(ALICE_HERE);
      repository.findCredentials.mockResolvedValue(credentials);
      await serviceWith().issueToken('Alice', PASSWORD, ADDRESS);
      // From then on the account vouches for that address.
      const trusted: LoginAttempt = { ...ALICE_HERE, trusted: true };
      for (let i = 0; i < 5; i += 1) limiter.recordAttempt(trusted);
      expect(() => limiter.assertAllowed(trusted)).not.toThrow();
    });

    // Each attempt is counted before the (slow) password check, so a burst of parallel guesses
    // cannot all pass the limit while their hashes are computed.
    it('limits concurrent guesses for one username too', async () => {
      repository.findCredentials.mockResolvedValue(credentials);
      const slowHasher = {
        verify: () => new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5)),
      } as unknown as PasswordHasher;
      const service = serviceWith(configWith(), slowHasher);
      const outcomes = await Promise.all(
        Array.from({ length: 30 }, () =>
          service.issueToken('alice', 'guess', ADDRESS).catch((caught: unknown) => caught),
        ),
      );
      const guessesChecked = outcomes.filter(
        (outcome) => outcome instanceof InvalidCredentialsError,
      );
      // The free failures, and the first one past them, which imposes the first wait.
      expect(guessesChecked.length).toBeLessThanOrEqual(6);
    });
  });

  describe('issueToken while the username is guessed from many addresses', () => {
    /** 11 failures for alice from 11 other addresses: the username waits 1 s. */
    function underAttack() {
      for (let i = 1; i <= 11; i += 1) {
        const attempt: LoginAttempt = { usernameKey: 'alice', address: `198.51.100.${i}` };
        limiter.recordAttempt(attempt);
        limiter.recordFailure(attempt);
      }
    }

    it('refuses an address the account never signed in from, before checking the password', async () => {
      jest.spyOn(Date, 'now').mockReturnValue(NOW);
      underAttack();
      repository.findCredentials.mockResolvedValue(credentials);
      repository.isSignInAddress.mockResolvedValue(false);
      const refusal = await serviceWith()
        .issueToken('alice', PASSWORD, ADDRESS)
        .catch((caught: unknown) => caught);
      expect(refusal).toBeInstanceOf(TooManyLoginAttemptsError);
      expect(refusal).toMatchObject({ counted: 'username', retryAfterSeconds: 1 });
      expect(repository.storeSignIn).not.toHaveBeenCalled();
    });

    it('lets the owner in from an address the account signed in from in the last 30 days', async () => {
      jest.spyOn(Date, 'now').mockReturnValue(NOW);
      underAttack();
      repository.findCredentials.mockResolvedValue(credentials);
      repository.isSignInAddress.mockResolvedValue(true);
      await expect(serviceWith().issueToken('alice', PASSWORD, ADDRESS)).resolves.toMatchObject({
        expiresInSeconds: 3600,
      });
      expect(repository.isSignInAddress).toHaveBeenCalledWith(
        'acc-1',
        signInAddressDigest('acc-1', ADDRESS),
        new Date(NOW - 30 * 24 * 3600 * 1000),
      );
      // The credentials were read once, for both questions.
      expect(repository.findCredentials).toHaveBeenCalledTimes(1);
    });

    it('does not look the address up while the username is not held back', async () => {
      repository.findCredentials.mockResolvedValue(credentials);
      await serviceWith().issueToken('alice', PASSWORD, ADDRESS);
      expect(repository.isSignInAddress).not.toHaveBeenCalled();
    });
  });

  describe('authenticate', () => {
    it('looks the token up by its SHA-256 and returns the account with its token', async () => {
      jest.spyOn(Date, 'now').mockReturnValue(NOW);
      repository.findByAccessToken.mockResolvedValue(found());
      await expect(serviceWith().authenticate('the-token')).resolves.toEqual({
        id: 'acc-1',
        username: 'Alice',
        token: { hash: TOKEN_HASH, issuedAt: new Date(NOW) },
      });
      const [hash, now] = repository.findByAccessToken.mock.calls[0];
      expect(hash).toBe(createHash('sha256').update('the-token').digest('hex'));
      expect(now).toBeInstanceOf(Date);
    });

    it('remembers a verified token briefly, never past its expiry', async () => {
      const clock = jest.spyOn(Date, 'now').mockReturnValue(NOW);
      repository.findByAccessToken.mockResolvedValue(
        found({ tokenExpiresAt: new Date(NOW + 10_000) }),
      );
      const service = serviceWith();
      await service.authenticate('the-token');
      await service.authenticate('the-token');
      expect(repository.findByAccessToken).toHaveBeenCalledTimes(1);
      clock.mockReturnValue(NOW + 10_000);
      repository.findByAccessToken.mockResolvedValue(null);
      await expect(service.authenticate('the-token')).resolves.toBeNull();
      expect(repository.findByAccessToken).toHaveBeenCalledTimes(2);
    });

    it('asks the database every time while revocations are not heard', async () => {
      notifications.listening = false;
      repository.findByAccessToken.mockResolvedValue(found());
      const service = serviceWith();
      await service.authenticate('the-token');
      await service.authenticate('the-token');
      expect(repository.findByAccessToken).toHaveBeenCalledTimes(2);
    });

    it('keeps what a lookup read when nothing was revoked meanwhile', async () => {
      repository.findByAccessToken.mockResolvedValueOnce(found());
      const service = serviceWith();
      await service.authenticate('the-token');
      repository.findByAccessToken.mockResolvedValue(null);
      await expect(service.authenticate('the-token')).resolves.toMatchObject({ id: 'acc-1' });
    });

    it('does not keep what a lookup read when a revocation was heard while it ran', async () => {
      let answer: (value: ReturnType<typeof found>) => void = () => undefined;
      repository.findByAccessToken.mockImplementationOnce(
        () => new Promise((resolve) => (answer = resolve)),
      );
      const service = serviceWith();
      const lookup = service.authenticate('the-token');
      // Revoked on another instance while the row was on its way.
      notifications.deliver(TOKEN_REVOCATIONS_CHANNEL, `token ${TOKEN_HASH} n1`);
      answer(found());
      await lookup;
      repository.findByAccessToken.mockResolvedValue(null);
      await expect(service.authenticate('the-token')).resolves.toBeNull();
    });

    it('returns null for an unknown or expired token', async () => {
      repository.findByAccessToken.mockResolvedValue(null);
      await expect(serviceWith().authenticate('nope')).resolves.toBeNull();
    });
  });

  describe('revocations', () => {
    const caller = (issuedAt = new Date()): SignedInAccount => ({
      id: 'acc-1',
      username: 'Alice',
      token: { hash: TOKEN_HASH, issuedAt },
    });

    /** Signs the token in, so that it sits in this instance's cache. */
    async function cached(service: AccountsService) {
      repository.findByAccessToken.mockResolvedValue(found());
      await service.authenticate('the-token');
      expect(cache.get(TOKEN_HASH)).toBeDefined();
      repository.findByAccessToken.mockResolvedValue(null);
    }

    it('signs out: deletes the token, sending a notice that names it, and forgets it here', async () => {
      const service = serviceWith();
      await cached(service);
      await service.signOut(caller());
      const [hash, notice] = repository.revokeToken.mock.calls[0];
      expect(hash).toBe(TOKEN_HASH);
      expect(readRevocation(notice.payload)?.revoked).toEqual({ tokenHash: TOKEN_HASH });
      await expect(service.authenticate('the-token')).resolves.toBeNull();
    });

    it('signs out everywhere with a notice that names the account', async () => {
      const service = serviceWith();
      await cached(service);
      await service.signOutEverywhere(caller());
      const [accountId, notice] = repository.revokeTokens.mock.calls[0];
      expect(accountId).toBe('acc-1');
      expect(readRevocation(notice.payload)?.revoked).toEqual({ accountId: 'acc-1' });
      expect(cache.get(TOKEN_HASH)).toBeUndefined();
    });

    describe('waiting for the other instances', () => {
      let notice: RevocationNotice | undefined;
      let done: boolean;

      beforeEach(() => {
        jest.useFakeTimers();
        notice = undefined;
        done = false;
        // Two instances had a notification connection when it committed: this one and another.
        repository.revokeTokens.mockImplementation((_id, sent) => {
          notice = sent;
          notifications.deliver(sent.channel, sent.payload);
          return Promise.resolve({ applied: true, instances: 2 });
        });
      });
      afterEach(() => jest.useRealTimers());

      const signOut = () =>
        serviceWith()
          .signOutEverywhere(caller())
          .then(() => (done = true));

      it('answers once every instance said it dropped the tokens', async () => {
        const signingOut = signOut();
        await jest.advanceTimersByTimeAsync(100);
        expect(done).toBe(false);
        notifications.deliver(TOKEN_REVOCATIONS_HEARD_CHANNEL, notice?.nonce ?? '');
        await signingOut;
        expect(done).toBe(true);
      });

      it('answers within the deadline when one never says it', async () => {
        const signingOut = signOut();
        await jest.advanceTimersByTimeAsync(configWith().database.timeoutMs - 1);
        expect(done).toBe(false);
        await jest.advanceTimersByTimeAsync(1);
        await signingOut;
        expect(done).toBe(true);
      });

      it('does not wait when this instance cannot hear the answers', async () => {
        notifications.listening = false;
        await signOut();
        expect(done).toBe(true);
      });
    });

    it('changes the password: checks the current one, stores a new hash, keeps the token in use', async () => {
      repository.findPasswordHash.mockResolvedValue(credentials.passwordHash);
      await serviceWith().changePassword(caller(), PASSWORD, 'a brand new password', ADDRESS);
      const [accountId, newHash, kept, notice] = repository.changePassword.mock.calls[0];
      expect([accountId, kept]).toEqual(['acc-1', TOKEN_HASH]);
      await expect(hasher.verify('a brand new password', newHash)).resolves.toBe(true);
      expect(readRevocation(notice.payload)?.revoked).toEqual({
        accountId: 'acc-1',
        except: TOKEN_HASH,
      });
    });

    it('refuses a wrong current password with WrongPasswordError, counted as a failed sign-in', async () => {
      repository.findPasswordHash.mockResolvedValue(credentials.passwordHash);
      const failure = jest.spyOn(limiter, 'recordFailure');
      const service = serviceWith();
      const refusal = await service
        .changePassword(caller(), 'not it', 'a brand new password', ADDRESS)
        .catch((caught: unknown) => caught);
      expect(refusal).toBeInstanceOf(WrongPasswordError);
      expect(repository.changePassword).not.toHaveBeenCalled();
      // The owner's token vouches for the request: the username's own wait does not apply.
      expect(failure).toHaveBeenCalledWith({ ...ALICE_HERE, trusted: true });
      // Five more from this address, and the next waits.
      for (let i = 0; i < 5; i += 1) {
        await service
          .changePassword(caller(), `not it ${i}`, 'a brand new password', ADDRESS)
          .catch(() => undefined);
      }
      await expect(
        service.changePassword(caller(), PASSWORD, 'a brand new password', ADDRESS),
      ).rejects.toBeInstanceOf(TooManyLoginAttemptsError);
      expect(repository.changePassword).not.toHaveBeenCalled();
    });

    it('answers 401 when the account went away meanwhile', async () => {
      repository.findPasswordHash.mockResolvedValue(undefined);
      await expect(
        serviceWith().changePassword(caller(), PASSWORD, 'a brand new password', ADDRESS),
      ).rejects.toBeInstanceOf(AuthenticationRequiredError);
    });

    it('deletes the account with a token of the last 5 minutes, and starts the purge', async () => {
      const service = serviceWith();
      await cached(service);
      await service.deleteAccount(caller(new Date(Date.now() - 4 * 60_000)));
      const [accountId, notice] = repository.markDeleted.mock.calls[0];
      expect(accountId).toBe('acc-1');
      expect(readRevocation(notice.payload)?.revoked).toEqual({ accountId: 'acc-1' });
      expect(cache.get(TOKEN_HASH)).toBeUndefined();
      expect(purge.wake).toHaveBeenCalledTimes(1);
    });

    it('refuses to delete the account with an older token, changing nothing', async () => {
      const refusal = await serviceWith()
        .deleteAccount(caller(new Date(Date.now() - 5 * 60_000 - 1000)))
        .catch((caught: unknown) => caught);
      expect(refusal).toBeInstanceOf(RecentSignInRequiredError);
      expect(repository.markDeleted).not.toHaveBeenCalled();
      expect(purge.wake).not.toHaveBeenCalled();
    });
  });
});
