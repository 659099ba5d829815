import { isIP } from 'node:net';
import type { TrustProxy } from '../config/server.ts';

// The caller's address (docs/website.md#client-ip), taken from whom TRUST_PROXY names (src/config/server.ts):
// by default only the TCP peer's, as a header sent by the client is never trusted.

export interface ClientAddressSource {
  /** The TCP peer, as node:net reports it. */
  socketAddress: string | undefined;
  header(name: string): string | undefined;
}

export function clientIp(source: ClientAddressSource, trust: TrustProxy): string | null {
  switch (trust.mode) {
    case 'none':
      return normalizeIp(source.socketAddress);
    case 'cloudflare':
      return normalizeIp(source.header('cf-connecting-ip'));
    case 'hops': {
      // Each trusted proxy appends the address it received from, so with N proxies the client
      // is the N-th entry from the right; anything left of it was written by the client.
      const entries = (source.header('x-forwarded-for') ?? '')
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean);
      return entries.length >= trust.hops ? normalizeIp(entries[entries.length - trust.hops]) : null;
    }
  }
}

/**
 * A bare IPv4/IPv6 address, IPv4-mapped IPv6 unwrapped; null for anything else. Proxies may
 * write a port with the address (`203.0.113.5:4711`, `[2001:db8::1]:443`, RFC 7239 style):
 * the port is dropped.
 */
export function normalizeIp(value: string | undefined): string | null {
  if (!value) return null;
  const trimmed = value.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(trimmed);
  const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(trimmed);
  // A zone index (`fe80::1%eth0`) names the sender's interface, not the sender.
  const address = (bracketed?.[1] ?? withPort?.[1] ?? trimmed).replace(/%[^%]*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isIP(mapped[1]!) ? mapped[1]! : null;
  return isIP(address) ? address.toLowerCase() : null;
}
