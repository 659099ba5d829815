import { type BlockList, isIP } from 'node:net';
import { isBlockedAddress, NON_PUBLIC_ADDRESSES } from './blocked-addresses.ts';
import { OutboundError } from './outbound-error.ts';

// Which addresses an outbound request may connect to. A URL anyone may have written (a token URI, a
// webhook URL) must not make the server reach its own loopback services, the network behind it or a
// cloud metadata endpoint: such requests carry a block list, checked on the address each connection
// is made to (an IP literal before connecting, a name inside the connection's lookup: guarded-lookup.ts).

export interface AddressPolicy {
  /** Addresses never connected to; null: any. */
  blocked: BlockList | null;
  /** One origin (scheme, host and port) connected to whatever its address: the site's own in local mode; null: none. */
  exemptOrigin: string | null;
}

/** Any address: URLs the operator configured (an exchange's API, Cloudflare's siteverify, an upstream node). */
export const ANY_ADDRESS: AddressPolicy = { blocked: null, exemptOrigin: null };

/**
 * NFT_FETCH_PRIVATE's modes (src/nfts/README.md): `deny`, public addresses only (production's default);
 * `site`, those and the site's own origin (local mode's default: the local world's documents are there);
 * `allow`, any address.
 */
export function privateAddressPolicy(mode: 'deny' | 'site' | 'allow', siteOrigin: string): AddressPolicy {
  if (mode === 'allow') return ANY_ADDRESS;
  return { blocked: NON_PUBLIC_ADDRESSES, exemptOrigin: mode === 'site' ? new URL(siteOrigin).origin : null };
}

/** The block list a request to `url` connects under: none for the exempt origin. */
export function blockListFor(url: URL, policy: AddressPolicy): BlockList | null {
  return url.origin === policy.exemptOrigin ? null : policy.blocked;
}

/** Why `url` may not be requested, before any connection: its scheme, or an IP literal host in the block list; null when it may. */
export function refusedTarget(url: URL, blocked: BlockList | null): OutboundError | null {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return new OutboundError('unsupported_scheme', `unsupported URI scheme ${url.protocol}`);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  // A name is checked by the connection's lookup; an IP literal is never looked up.
  if (blocked && isIP(host) && isBlockedAddress(host, blocked)) return new OutboundError('blocked_address', `blocked address ${host}`, { address: host });
  return null;
}
