import { loadConfig } from '../config/load-config';
import { createHash } from 'node:crypto';
import { jest } from '@jest/globals';
import {
  InvalidCredentialsError,
  SignUpDisabledError,
  TooManyLoginAttemptsError,
} from '../common/errors';
import { type AppConfig } from '../config/app-config';
import { hashAccessToken } from './access-token';
import { type AccountCredentials, type AccountsRepository } from './accounts.repository';
import { AccountsService, usernameKey } from './accounts.service';
import { LoginAttemptLimiter } from './login-attempt-limiter';
import { PasswordHasher } from './password-hasher';

const PASSWORD = 'correct horse battery staple';
const NOW = Date.parse('2025-03-01T12:00:00Z');

function configWith(auth: Partial<AppConfig['auth']> = {}): AppConfig {
  const defaults = loadConfig({});
  return { ...defaults, auth: { ...defaults.auth, ...auth } };
}

function repositoryMock() {
  return {
    create: jest.fn<AccountsRepository['create']>(),
    findCredentials: jest.fn<AccountsRepository['findCredentials']>(),
    storeAccessToken: jest.fn<AccountsRepository['storeAccessToken']>(),
    findByAccessToken: jest.fn<AccountsRepository['findByAccessToken']>(),
  };
}

describe('AccountsService', () => {
  const hasher = new PasswordHasher();
  let credentials: AccountCredentials;
  let repository: ReturnType<typeof repositoryMock>;
  let limiter: LoginAttemptLimiter;

  const serviceWith = (config: AppConfig = configWith()) =>
    new AccountsService(repository as unknown as AccountsRepository, hasher, limiter, config);

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
    repository.storeAccessToken.mockResolvedValue(undefined);
    limiter = new LoginAttemptLimiter();
  });

  afterEach(() => jest.restoreAllMocks());

  describe('signUp', () => {
    it('throws SignUpDisabledError when sign-up is switched off, without creating anything', async () => {
      const service = serviceWith(configWith({ signUpEnabled: false }));
      await expect(service.signUp('alice', PASSWORD)).rejects.toBeInstanceOf(SignUpDisabledError);
      expect(repository.create).not.toHaveBeenCalled();
    });

    it('stores the NFC username, its case-insensitive key and a scrypt hash, never the password', async () => {
      const record = { id: 'acc-2', username: 'Café', createdAt: new Date() };
      repository.create.mockResolvedValue(record);
      await expect(serviceWith().signUp('CAFE\u0301', PASSWORD)).resolves.toBe(record);

      expect(repository.create).toHaveBeenCalledTimes(1);
      const [username, key, passwordHash] = repository.create.mock.calls[0];
      expect(username).toBe('CAF\u00c9');
      expect(key).toBe('caf\u00e9');
      expect(passwordHash).toMatch(/^scrypt\$/);
      expect(passwordHash).not.toContain(PASSWORD);
      await expect(hasher.verify(PASSWORD, passwordHash)).resolves.toBe(true);
    });

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

      const { token, expiresInSeconds } = await service.issueToken('ALICE', PASSWORD);

      expect(expiresInSeconds).toBe(900);
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(repository.findCredentials).toHaveBeenCalledWith('alice');
      expect(repository.storeAccessToken).toHaveBeenCalledTimes(1);
      const [accountId, storedHash, expiresAt] = repository.storeAccessToken.mock.calls[0];
      expect(accountId).toBe('acc-1');
      expect(storedHash).toBe(hashAccessToken(token));
      expect(storedHash).toBe(createHash('sha256').update(token).digest('hex'));
      expect(expiresAt).toEqual(new Date(NOW + 900 * 1000));
      // The token itself never reaches the repository.
      const everything = JSON.stringify(repository.storeAccessToken.mock.calls);
      expect(everything).not.toContain(token);
    });

    it('issues a different token each time', async () => {
      repository.findCredentials.mockResolvedValue(credentials);
      const service = serviceWith();
      const first = await service.issueToken('alice', PASSWORD);
      const second = await service.issueToken('alice', PASSWORD);
      expect(first.token).not.toBe(second.token);
    });

    it('throws InvalidCredentialsError for a wrong password and stores no token', async () => {
      repository.findCredentials.mockResolvedValue(credentials);
      const failure = jest.spyOn(limiter, 'recordFailure');
      await expect(serviceWith().issueToken('Alice', 'wrong password')).rejects.toBeInstanceOf(
        InvalidCredentialsError,
      );
      expect(repository.storeAccessToken).not.toHaveBeenCalled();
      expect(failure).toHaveBeenCalledWith('alice');
    });

    it('throws the same InvalidCredentialsError for an unknown username', async () => {
      repository.findCredentials.mockResolvedValue(null);
      const failure = jest.spyOn(limiter, 'recordFailure');
      const unknown = await serviceWith()
        .issueToken('nobody', PASSWORD)
        .catch((caught: unknown) => caught);
      expect(unknown).toBeInstanceOf(InvalidCredentialsError);
      expect((unknown as Error).message).toBe(new InvalidCredentialsError().message);
      expect(repository.storeAccessToken).not.toHaveBeenCalled();
      expect(failure).toHaveBeenCalledWith('nobody');
    });

    it('refuses with TooManyLoginAttemptsError after 10 failures, before checking anything', async () => {
      for (let i = 0; i < 10; i += 1) limiter.recordFailure('alice');
      repository.findCredentials.mockResolvedValue(credentials);
      const error = await serviceWith()
        .issueToken('ALICE', PASSWORD)
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(TooManyLoginAttemptsError);
      expect((error as TooManyLoginAttemptsError).retryAfterSeconds).toBeGreaterThan(0);
      expect(repository.findCredentials).not.toHaveBeenCalled();
      expect(repository.storeAccessToken).not.toHaveBeenCalled();
    });

    it('resets the failure count on success', async () => {
      for (let i = 0; i < 9; i += 1) limiter.recordFailure('alice');
      repository.findCredentials.mockResolvedValue(credentials);
      await serviceWith().issueToken('Alice', PASSWORD);
      for (let i = 0; i < 9; i += 1) limiter.recordFailure('alice');
      expect(() => limiter.assertAllowed('alice')).not.toThrow();
    });

    // Each attempt is counted before the (slow) password check, so a burst of parallel guesses
    // cannot all pass the limit while their hashes are computed.
    it('limits concurrent guesses for one username too', async () => {
      repository.findCredentials.mockResolvedValue(credentials);
      const slowHasher = {
        verify: () => new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5)),
      } as unknown as PasswordHasher;
      const service = new AccountsService(
        repository as unknown as AccountsRepository,
        slowHasher,
        limiter,
        configWith(),
      );
      const outcomes = await Promise.all(
        Array.from({ length: 30 }, () =>
          service.issueToken('alice', 'guess').catch((caught: unknown) => caught),
        ),
      );
      const guessesChecked = outcomes.filter(
        (outcome) => outcome instanceof InvalidCredentialsError,
      );
      expect(guessesChecked.length).toBeLessThanOrEqual(10);
    });
  });

  describe('authenticate', () => {
    it('looks the token up by its SHA-256 and returns id and username', async () => {
      jest.spyOn(Date, 'now').mockReturnValue(NOW);
      repository.findByAccessToken.mockResolvedValue({
        id: 'acc-1',
        username: 'Alice',
        createdAt: new Date(),
        tokenExpiresAt: new Date(NOW + 3_600_000),
      });
      await expect(serviceWith().authenticate('the-token')).resolves.toEqual({
        id: 'acc-1',
        username: 'Alice',
      });
      const [hash, now] = repository.findByAccessToken.mock.calls[0];
      expect(hash).toBe(createHash('sha256').update('the-token').digest('hex'));
      expect(now).toBeInstanceOf(Date);
    });

    it('remembers a verified token briefly, never past its expiry', async () => {
      const clock = jest.spyOn(Date, 'now').mockReturnValue(NOW);
      repository.findByAccessToken.mockResolvedValue({
        id: 'acc-1',
        username: 'Alice',
        createdAt: new Date(),
        tokenExpiresAt: new Date(NOW + 10_000),
      });
      const service = serviceWith();
      await service.authenticate('the-token');
      await service.authenticate('the-token');
      expect(repository.findByAccessToken).toHaveBeenCalledTimes(1);
      clock.mockReturnValue(NOW + 10_000);
      repository.findByAccessToken.mockResolvedValue(null);
      await expect(service.authenticate('the-token')).resolves.toBeNull();
      expect(repository.findByAccessToken).toHaveBeenCalledTimes(2);
    });

    it('returns null for an unknown or expired token', async () => {
      repository.findByAccessToken.mockResolvedValue(null);
      await expect(serviceWith().authenticate('nope')).resolves.toBeNull();
    });
  });
});

describe('usernameKey', () => {
  it('is the same whatever the case', () => {
    expect(usernameKey('Alice')).toBe('alice');
    expect(usernameKey('ALICE')).toBe(usernameKey('alice'));
    expect(usernameKey('aLiCe@Example.COM')).toBe('alice@example.com');
  });

  it('is the same for composed and decomposed forms of one name', () => {
    expect(usernameKey('Cafe\u0301')).toBe(usernameKey('CAF\u00c9'));
  });

  it('tells different names apart', () => {
    expect(usernameKey('alice')).not.toBe(usernameKey('alicia'));
  });
});
