import { isIPv4, isIPv6 } from 'node:net';

// Which bucket a client's requests count against for the per-IP limits. One person holds a
// whole IPv6 prefix (an ISP hands out a /64 or more), so IPv6 counts per prefix; a request
// whose client address is unknown counts against one shared bucket, never against none.

export const UNKNOWN_CLIENT_BUCKET = 'unknown';

/** `203.0.113.5`, `2001:db8:0:1:0:0:0:0/64`, or `unknown`. `ip` comes from normalizeIp (src/api/client-ip.ts). */
export function ipBucketOf(ip: string | null, ipv6PrefixLength: number): string {
  if (ip !== null && isIPv4(ip)) return ip;
  if (ip === null || !isIPv6(ip)) return UNKNOWN_CLIENT_BUCKET;
  const mask = ((1n << BigInt(ipv6PrefixLength)) - 1n) << BigInt(128 - ipv6PrefixLength);
  try {
    return `${formatIpv6(ipv6ToBigInt(ip) & mask)}/${ipv6PrefixLength}`;
  } catch {
    return UNKNOWN_CLIENT_BUCKET; // a form isIP accepts but this reader does not
  }
}

function ipv6ToBigInt(ip: string): bigint {
  // An embedded IPv4 tail (`64:ff9b::192.0.2.1`) is two groups.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(ip);
  const text = dotted
    ? `${ip.slice(0, dotted.index)}${((+dotted[1]! << 8) | +dotted[2]!).toString(16)}:${((+dotted[3]! << 8) | +dotted[4]!).toString(16)}`
    : ip;
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.reduce((value, group) => (value << 16n) | BigInt(`0x${group}`), 0n);
}

/** All eight groups, unabbreviated: a stable key, never shown to anyone. */
function formatIpv6(value: bigint): string {
  return Array.from({ length: 8 }, (_, i) => ((value >> BigInt(112 - 16 * i)) & 0xffffn).toString(16)).join(':');
}
