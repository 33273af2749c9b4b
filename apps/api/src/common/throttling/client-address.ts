import { isIPv4, isIPv6 } from 'node:net';

/**
 * The address a per-address budget is kept for: an IPv4 address as is (also when it arrives
 * IPv4-mapped, `::ffff:203.0.113.7`), an IPv6 address by its /64 network, since one host
 * usually holds a whole /64 and could otherwise rotate through it.
 */
export function clientAddressKey(address: string | undefined): string {
  const bare = address?.split('%')[0].toLowerCase() ?? '';
  if (isIPv4(bare)) return bare;
  if (!isIPv6(bare)) return 'unknown';
  const groups = ipv6Groups(bare);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (which may end in dotted IPv4). */
function ipv6Groups(address: string): number[] {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(zeros).fill('0'), ...right].map((group) => parseInt(group, 16));
}
