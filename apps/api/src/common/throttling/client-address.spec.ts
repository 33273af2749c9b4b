import { clientAddressKey } from './client-address';

describe('clientAddressKey', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:cb00:7107', '203.0.113.7'],
    ['2001:db8:85a3:12:8a2e:370:7334:1', '2001:db8:85a3:12::/64'],
    ['2001:DB8:85a3:12::1', '2001:db8:85a3:12::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
  ])('keys %s as %s', (address, key) => {
    expect(clientAddressKey(address)).toBe(key);
  });

  it('puts every host of one /64 in one budget and other networks in others', () => {
    expect(clientAddressKey('2001:db8:1:2::a')).toBe(clientAddressKey('2001:db8:1:2:ffff::b'));
    expect(clientAddressKey('2001:db8:1:2::a')).not.toBe(clientAddressKey('2001:db8:1:3::a'));
  });

  it.each([
    [undefined],
    [''],
    ['not-an-address'],
    ['999.1.1.1'],
    ['010.0.0.1'],
    ['127.1'],
    ['1:2:3:4:5:6:7:8:9'],
  ])('keys %s as unknown', (address) => {
    expect(clientAddressKey(address)).toBe('unknown');
  });
});
