import { PasswordHasher } from './password-hasher';

const BASE64URL = '[A-Za-z0-9_-]+';

describe('PasswordHasher', () => {
  const hasher = new PasswordHasher();
  const password = 'correct horse battery staple';
  let first: string;
  let second: string;

  beforeAll(async () => {
    [first, second] = await Promise.all([hasher.hash(password), hasher.hash(password)]);
  });

  it('produces scrypt$N$r$p$salt$hash without the password in it', () => {
    expect(first).toMatch(
      new RegExp(`^scrypt\\$\\d+\\$\\d+\\$\\d+\\$${BASE64URL}\\$${BASE64URL}$`),
    );
    expect(first).not.toContain(password);
  });

  it('salts: two hashes of one password differ, and both verify', async () => {
    expect(second).not.toBe(first);
    expect(first.split('$')[4]).not.toBe(second.split('$')[4]);
    await expect(hasher.verify(password, first)).resolves.toBe(true);
    await expect(hasher.verify(password, second)).resolves.toBe(true);
  });

  it('rejects a wrong password', async () => {
    await expect(hasher.verify('correct horse battery stapler', first)).resolves.toBe(false);
  });

  it('rejects a stored value of another scheme or shape without deriving', async () => {
    await expect(hasher.verify(password, 'bcrypt$2b$10$abc')).resolves.toBe(false);
    await expect(hasher.verify(password, '')).resolves.toBe(false);
    await expect(hasher.verify(password, 'scrypt$32768$8$1$')).resolves.toBe(false);
  });

  it('verifyAgainstNothing is always false', async () => {
    await expect(hasher.verifyAgainstNothing(password)).resolves.toBe(false);
  });
});
