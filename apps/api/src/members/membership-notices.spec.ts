import {
  membershipNotice,
  membershipPayload,
  names,
  readMembershipNotice,
} from './membership-notices';

describe('membership notices', () => {
  it('reads back a notice as it was sent', () => {
    const notice = membershipNotice('changed', 'p1', ['a1', 'a2']);
    expect(readMembershipNotice(membershipPayload(notice))).toEqual(notice);
    expect(names(notice, 'p1', 'a2')).toBe(true);
    expect(names(notice, 'p2', 'a2')).toBe(false);
    expect(names(notice, 'p1', 'a3')).toBe(false);
  });

  it.each(['gone p1 n a1', 'removed p1 n', 'removed p1 n a1 more', ''])(
    'knows no notice %j',
    (payload) => {
      expect(readMembershipNotice(payload)).toBeUndefined();
    },
  );
});
