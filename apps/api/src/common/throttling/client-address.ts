import ipaddr from 'ipaddr.js';

/**
 * The address a per-address budget is kept for: an IPv4 address as is (also when it arrives
 * IPv4-mapped, `::ffff:203.0.113.7`), an IPv6 address by its /64 network, since one host
 * usually holds a whole /64 and could otherwise rotate through it. (The key's text is stored,
 * digested, with the addresses an account signed in from: it keeps its form.)
 */
export function clientAddressKey(address: string | undefined): string {
  if (address === undefined) return 'unknown';
  if (ipaddr.IPv4.isValidFourPartDecimal(address)) return address;
  if (!ipaddr.IPv6.isValid(address)) return 'unknown';
  const ipv6 = ipaddr.IPv6.parse(address);
  if (ipv6.isIPv4MappedAddress()) return ipv6.toIPv4Address().toString();
  const network = ipv6.parts.slice(0, 4).map((part) => part.toString(16));
  return `${network.join(':')}::/64`;
}
