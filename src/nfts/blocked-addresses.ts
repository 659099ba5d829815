import { BlockList, isIP } from 'node:net';

// Addresses a metadata or media fetch never connects to in production (platform §5): a token URI
// is anyone's text, and without this list it could make the server read its own loopback
// services, the private network behind it or a cloud metadata endpoint (169.254.169.254).
// BlockList also matches the IPv4-mapped IPv6 form of every IPv4 range (::ffff:10.0.0.1).

const RANGES: ReadonlyArray<readonly [network: string, prefix: number, family: 'ipv4' | 'ipv6']> = [
  ['0.0.0.0', 8, 'ipv4'], // "this network", 0.0.0.0 unspecified
  ['10.0.0.0', 8, 'ipv4'], // private (RFC 1918)
  ['100.64.0.0', 10, 'ipv4'], // carrier-grade NAT (RFC 6598)
  ['127.0.0.0', 8, 'ipv4'], // loopback
  ['169.254.0.0', 16, 'ipv4'], // link-local, cloud metadata services
  ['172.16.0.0', 12, 'ipv4'], // private (RFC 1918)
  ['192.0.0.0', 24, 'ipv4'], // IETF protocol assignments
  ['192.168.0.0', 16, 'ipv4'], // private (RFC 1918)
  ['198.18.0.0', 15, 'ipv4'], // network benchmarking
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved, and the broadcast address
  ['::', 96, 'ipv6'], // unspecified (::), loopback (::1), the deprecated IPv4-compatible forms
  ['fc00::', 7, 'ipv6'], // unique-local
  ['fe80::', 10, 'ipv6'], // link-local
  ['fec0::', 10, 'ipv6'], // site-local (deprecated)
  ['ff00::', 8, 'ipv6'], // multicast
];

/** Loopback, private, unique-local, link-local, CGNAT, multicast, unspecified and reserved addresses, IPv4-mapped forms included. */
export const NON_PUBLIC_ADDRESSES = new BlockList();
for (const [network, prefix, family] of RANGES) NON_PUBLIC_ADDRESSES.addSubnet(network, prefix, family);

/** Whether `list` holds `address` (an IPv6 zone such as %eth0 ignored); anything that is not an IP address counts as held. */
export function isBlockedAddress(address: string, list: BlockList): boolean {
  const bare = address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  const family = isIP(bare);
  return family === 0 || list.check(bare, family === 6 ? 'ipv6' : 'ipv4');
}
