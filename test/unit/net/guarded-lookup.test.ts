import { lookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { BlockList } from 'node:net';
import { describe, expect, it } from 'vitest';
import { BlockedAddressError, guardedLookup } from '../../../src/net/guarded-lookup.ts';

// The lookup connections of a guarded pool make, on this machine's resolver: `localhost` is
// 127.0.0.1 and maybe ::1.

type Looked = { error: Error | null; addresses: LookupAddress[] };

function look(blocked: BlockList, all: boolean): Promise<Looked> {
  return new Promise((resolve) => {
    guardedLookup(blocked)('localhost', { all }, (error: Error | null, address: string | LookupAddress[], family?: number) => {
      resolve({ error, addresses: error ? [] : Array.isArray(address) ? address : [{ address, family: family! }] });
    });
  });
}

const list = (...addresses: string[]) => {
  const blocked = new BlockList();
  for (const address of addresses) blocked.addAddress(address, address.includes(':') ? 'ipv6' : 'ipv4');
  return blocked;
};

describe('guardedLookup', () => {
  it('hands the connection what the resolver says when nothing is blocked', async () => {
    const resolved = (await lookup('localhost', { all: true })).map((entry) => entry.address).sort();
    expect((await look(list(), true)).addresses.map((entry) => entry.address).sort()).toEqual(resolved);
    expect(resolved).toContain((await look(list(), false)).addresses[0]!.address);
  });

  it('drops blocked addresses and keeps the others', async () => {
    const { error, addresses } = await look(list('::1'), true);
    expect(error).toBeNull();
    expect(addresses.map((entry) => entry.address)).toEqual(['127.0.0.1']);
    expect((await look(list('::1'), false)).addresses[0]!.address).toBe('127.0.0.1');
  });

  it('fails with BlockedAddressError naming the first address when every one is blocked', async () => {
    for (const all of [true, false]) {
      const { error } = await look(list('127.0.0.1', '::1'), all);
      expect(error).toBeInstanceOf(BlockedAddressError);
      expect(error!.message).toMatch(/^blocked address (127\.0\.0\.1|::1)$/);
      expect((error as BlockedAddressError).address).toMatch(/^(127\.0\.0\.1|::1)$/);
    }
  });
});
