import { loadConfig } from '../config/load-config';
import { createHash } from 'node:crypto';
import { jest } from '@jest/globals';
import {
  InvalidCredentialsError,
  RequestValidationError,
  SignUpDisabledError,
  TooManyLoginAttemptsError,
} from '../common/errors';
import { type AppConfig } from '../config/app-config';
import { hashAccessToken } from './access-token';
import { type AccountCredentials, type AccountsRepository } from './accounts.repository';
import { AccountsService } from './accounts.service';
import { type LoginAttempt, LoginAttemptLimiter } from './login-attempt-limiter';
import { PasswordHasher } from './password-hasher';

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
      expect(repository.storeAccessToken).not.toHaveBeenCalled();
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
      expect(repository.storeAccessToken).not.toHaveBeenCalled();
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
      expect(repository.storeAccessToken).not.toHaveBeenCalled();

      // The owner, elsewhere, is not held back by them.
      await expect(service.issueToken('alice', PASSWORD, '198.51.100.9')).resolves.toMatchObject({
        expiresInSeconds: 3600,
      });
    });

    it('clears the count of the username at that address on success', async () => {
      for (let i = 0; i < 5; i += 1) limiter.recordAttempt(ALICE_HERE);
      repository.findCredentials.mockResolvedValue(credentials);
      await serviceWith().issueToken('Alice', PASSWORD, ADDRESS);
      for (let i = 0; i < 5; i += 1) limiter.recordAttempt(ALICE_HERE);
      expect(() => limiter.assertAllowed(ALICE_HERE)).not.toThrow();
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
