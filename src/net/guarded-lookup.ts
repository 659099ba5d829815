import { lookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import type { BlockList, LookupFunction } from 'node:net';
import { isBlockedAddress } from './blocked-addresses.ts';

// The DNS lookup a fetch's connection makes: the addresses it hands the socket are the ones it
// connects to, so a name cannot resolve to a public address for a check and to a private one for
// the connection (DNS rebinding). Blocked addresses are dropped; a name with no other fails.

/** The connection's host resolved only to addresses in the block list; `address` is the first of them. */
export class BlockedAddressError extends Error {
  readonly address: string;
  constructor(address: string) {
    super(`blocked address ${address}`);
    this.name = 'BlockedAddressError';
    this.address = address;
  }
}

/** A `lookup` for http.request / net.connect that never yields an address `blocked` holds. */
export function guardedLookup(blocked: BlockList): LookupFunction {
  return (hostname, options, callback) => {
    const all: LookupAllOptions = { ...options, all: true };
    lookup(hostname, all, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '');
      const allowed = addresses.filter((entry) => !isBlockedAddress(entry.address, blocked));
      const first = allowed[0];
      if (!first) return callback(new BlockedAddressError(addresses[0]?.address ?? hostname), '');
      if (options.all) return callback(null, allowed);
      callback(null, first.address, first.family);
    });
  };
}
