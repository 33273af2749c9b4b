import { readRevocation, revocationNotice, revokes, type Revoked } from './token-revocations';

const HASH = 'a'.repeat(64);
const OTHER_HASH = 'b'.repeat(64);

describe('token revocations', () => {
  it.each<[string, Revoked]>([
    ['one token', { tokenHash: HASH }],
    ['every token of an account', { accountId: 'acc-1' }],
    ['every token of an account but one', { accountId: 'acc-1', except: HASH }],
  ])('reads back a notice of %s as it was sent', (_what, revoked) => {
    const notice = revocationNotice(revoked);
    expect(readRevocation(notice.payload)).toEqual({ revoked, nonce: notice.nonce });
  });

  it.each([
    'account-except acc-1 nonce',
    'account-except acc-1 hash nonce more',
    'account acc-1',
    'tokens acc-1 nonce',
  ])('knows no notice %j', (payload) => {
    expect(readRevocation(payload)).toBeUndefined();
  });

  it('stops the tokens it names, and keeps the one a password change was made with', () => {
    const mine = { accountId: 'acc-1', tokenHash: HASH };
    const myOther = { accountId: 'acc-1', tokenHash: OTHER_HASH };
    const theirs = { accountId: 'acc-2', tokenHash: OTHER_HASH };
    const stopped = (revoked: Revoked) =>
      [mine, myOther, theirs].map((token) => revokes(revoked, token));
    expect(stopped({ tokenHash: HASH })).toEqual([true, false, false]);
    expect(stopped({ accountId: 'acc-1' })).toEqual([true, true, false]);
    expect(stopped({ accountId: 'acc-1', except: HASH })).toEqual([false, true, false]);
  });
});
