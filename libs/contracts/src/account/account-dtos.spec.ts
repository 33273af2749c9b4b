import { validateBody } from '../validation/validate-body';
import { SignUpDto } from './sign-up.dto';
import { ChangePasswordDto } from './change-password.dto';
import { TokenRequestDto } from './token-request.dto';

describe('SignUpDto', () => {
  it('accepts a username of 3..254 (once normalised) and a password of 8..256 characters', async () => {
    for (const body of [
      { username: 'ada', password: '12345678' },
      { username: 'a'.repeat(254), password: 'p'.repeat(256) },
      { username: '😀😀😀', password: 'pässwörd' },
      // Validation leaves the value as sent: the server normalises it.
      { username: ' ＡＤＡ ', password: '12345678' },
    ]) {
      const result = await validateBody(SignUpDto, body);
      expect(result.errors).toEqual([]);
      expect(result.value).toEqual(body);
    }
  });

  it.each([
    [
      { username: 'ab', password: '12345678' },
      '/username',
      'must be a string of 3 to 254 characters',
    ],
    [
      { username: 'a'.repeat(255), password: '12345678' },
      '/username',
      'must be a string of 3 to 254 characters',
    ],
    [
      { username: 'ada', password: '1234567' },
      '/password',
      'must be a string of 8 to 256 characters',
    ],
    [
      { username: 'ada', password: 'p'.repeat(257) },
      '/password',
      'must be a string of 8 to 256 characters',
    ],
    [
      { username: 42, password: '12345678' },
      '/username',
      'must be a string of 3 to 254 characters',
    ],
    [
      { username: null, password: '12345678' },
      '/username',
      'must be a string of 3 to 254 characters',
    ],
    [{ password: '12345678' }, '/username', 'is required'],
    [
      { username: 'ada\u0000', password: '12345678' },
      '/username',
      'must contain only letters, marks, digits, punctuation and symbols: no spaces inside, ' +
        'no control, format, private-use or unassigned characters',
    ],
    [
      { username: 'al ice', password: '12345678' },
      '/username',
      'must contain only letters, marks, digits, punctuation and symbols: no spaces inside, ' +
        'no control, format, private-use or unassigned characters',
    ],
    [
      { username: '  ab ', password: '12345678' },
      '/username',
      'must be a string of 3 to 254 characters',
    ],
    [{ username: 'ada', password: '12345678', role: 'admin' }, '/role', 'is not a known member'],
  ])('rejects %j at %s', async (body, pointer, detail) => {
    const result = await validateBody(SignUpDto, body);
    expect(result.errors).toEqual([{ pointer, detail }]);
  });
});

describe('TokenRequestDto', () => {
  it('accepts any non-empty credentials up to the sign-up maximums', async () => {
    const result = await validateBody(TokenRequestDto, { username: 'x', password: 'y' });
    expect(result.ok).toBe(true);
  });

  it('rejects empty, missing and oversized credentials cheaply', async () => {
    const result = await validateBody(TokenRequestDto, {
      username: '',
      password: 'p'.repeat(1_000_000),
    });
    expect(result.errors).toEqual([
      { pointer: '/username', detail: 'must be a non-empty string of at most 254 characters' },
      { pointer: '/password', detail: 'must be a non-empty string of at most 256 characters' },
    ]);
    expect((await validateBody(TokenRequestDto, {})).errors).toEqual([
      { pointer: '/username', detail: 'is required' },
      { pointer: '/password', detail: 'is required' },
    ]);
  });
});

describe('ChangePasswordDto', () => {
  it('takes any current password up to the maximum and a new one of 8..256 characters', async () => {
    for (const body of [
      { currentPassword: 'x', newPassword: '12345678' },
      { currentPassword: 'p'.repeat(256), newPassword: 'p'.repeat(256) },
    ]) {
      expect((await validateBody(ChangePasswordDto, body)).errors).toEqual([]);
    }
  });

  it.each([
    [{ currentPassword: 'old password', newPassword: 'short' }, '/newPassword'],
    [{ currentPassword: 'old password', newPassword: 'p'.repeat(257) }, '/newPassword'],
    [{ currentPassword: '', newPassword: '12345678' }, '/currentPassword'],
    [{ currentPassword: 'p'.repeat(257), newPassword: '12345678' }, '/currentPassword'],
    [{ newPassword: '12345678' }, '/currentPassword'],
    [{ currentPassword: 'old password', newPassword: '12345678', username: 'x' }, '/username'],
  ])('rejects %j at %s', async (body, pointer) => {
    const result = await validateBody(ChangePasswordDto, body);
    expect(result.errors.map((error) => error.pointer)).toEqual([pointer]);
  });
});
