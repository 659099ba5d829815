import { BlockList, isIP } from 'node:net';

// Addresses a metadata or media fetch, or a webhook delivery, never connects to in production
// (src/nfts/README.md): a token URI or a webhook URL is anyone's text, and without this list it
// could make the server reach its own loopback services, the private network behind it or a cloud
// metadata endpoint (169.254.169.254). isBlockedAddress is the one decision every caller makes.

const RANGES: ReadonlyArray<readonly [network: string, prefix: number, family: 'ipv4' | 'ipv6']> = [
  ['0.0.0.0', 8, 'ipv4'], // "this network", 0.0.0.0 unspecified
  ['10.0.0.0', 8, 'ipv4'], // private (RFC 1918)
  ['100.64.0.0', 10, 'ipv4'], // carrier-grade NAT (RFC 6598)
  ['127.0.0.0', 8, 'ipv4'], // loopback
  ['169.254.0.0', 16, 'ipv4'], // link-local, cloud metadata services
  ['172.16.0.0', 12, 'ipv4'], // private (RFC 1918)
  ['192.0.0.0', 24, 'ipv4'], // IETF protocol assignments
  ['192.0.2.0', 24, 'ipv4'], // documentation (TEST-NET-1)
  ['192.168.0.0', 16, 'ipv4'], // private (RFC 1918)
  ['198.18.0.0', 15, 'ipv4'], // network benchmarking
  ['198.51.100.0', 24, 'ipv4'], // documentation (TEST-NET-2)
  ['203.0.113.0', 24, 'ipv4'], // documentation (TEST-NET-3)
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved, and the broadcast address
  ['::', 128, 'ipv6'], // unspecified
  ['::1', 128, 'ipv6'], // loopback
  ['64:ff9b:1::', 48, 'ipv6'], // local-use IPv4/IPv6 translation (RFC 8215)
  ['100::', 64, 'ipv6'], // discard-only (RFC 6666)
  ['2001:2::', 48, 'ipv6'], // benchmarking
  ['2001:10::', 28, 'ipv6'], // ORCHID (deprecated)
  ['2001:db8::', 32, 'ipv6'], // documentation
  ['3fff::', 20, 'ipv6'], // documentation (RFC 9637)
  ['5f00::', 16, 'ipv6'], // segment routing SIDs (RFC 9602)
  ['fc00::', 7, 'ipv6'], // unique-local
  ['fe80::', 10, 'ipv6'], // link-local
  ['fec0::', 10, 'ipv6'], // site-local (deprecated)
  ['ff00::', 8, 'ipv6'], // multicast
];

/** Loopback, private, unique-local, link-local, CGNAT, multicast, unspecified, documentation and reserved addresses. */
export const NON_PUBLIC_ADDRESSES = new BlockList();
for (const [network, prefix, family] of RANGES) NON_PUBLIC_ADDRESSES.addSubnet(network, prefix, family);

/**
 * Whether `list` holds `address` (brackets and an IPv6 zone such as %eth0 ignored), or holds an IPv4
 * address that an IPv6 address carries by its form (embeddedIpv4s): a NAT64 or 6to4 address of
 * 169.254.169.254 reaches 169.254.169.254. Anything that is not an IP address counts as held.
 */
export function isBlockedAddress(address: string, list: BlockList): boolean {
  const bare = address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 0) return true;
  if (family === 4) return list.check(bare, 'ipv4');
  return list.check(bare, 'ipv6') || embeddedIpv4s(ipv6Groups(bare)).some((ipv4) => list.check(ipv4, 'ipv4'));
}

/**
 * The IPv4 addresses an IPv6 address stands for, by its prefix: IPv4-compatible ::a.b.c.d (::/96),
 * IPv4-mapped ::ffff:a.b.c.d, IPv4-translated ::ffff:0:a.b.c.d (SIIT), NAT64 64:ff9b::a.b.c.d
 * (RFC 6052), 6to4 2002:AABB:CCDD::/48 (RFC 3056), and Teredo 2001:0:<server>:<flags>:<port>:<client>
 * (RFC 4380: the client's address XORed with 0xffffffff; the server's is checked too).
 */
function embeddedIpv4s(groups: readonly number[]): string[] {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  const zeros = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0);
  const last = ipv4(g6, g7);
  if (zeros(0, 4) && ((g4 === 0 && (g5 === 0 || g5 === 0xffff)) || (g4 === 0xffff && g5 === 0))) return [last];
  if (g0 === 0x64 && g1 === 0xff9b && zeros(2, 6)) return [last];
  if (g0 === 0x2002) return [ipv4(g1, g2)];
  if (g0 === 0x2001 && g1 === 0) return [ipv4(g2, g3), ipv4(g6 ^ 0xffff, g7 ^ 0xffff)];
  return [];
}

const ipv4 = (high: number, low: number): string => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail as two groups). */
function ipv6Groups(address: string): number[] {
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  const hex = (high: string, low: string) => ((Number(high) << 8) | Number(low)).toString(16);
  const text = dotted ? `${address.slice(0, dotted.index)}${hex(dotted[1]!, dotted[2]!)}:${hex(dotted[3]!, dotted[4]!)}` : address;
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16)));
  const [head = '', tail] = text.split('::');
  if (tail === undefined) return groups(head);
  const [left, right] = [groups(head), groups(tail)];
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}
