import type { BlockList } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ANY_ADDRESS, blockListFor, privateAddressPolicy, refusedTarget } from '../../../src/net/address-policy.ts';
import { NON_PUBLIC_ADDRESSES } from '../../../src/net/blocked-addresses.ts';

const refused = (url: string, blocked: BlockList | null = NON_PUBLIC_ADDRESSES) => {
  const error = refusedTarget(new URL(url), blocked);
  return error && `${error.kind}: ${error.message}`;
};

describe('privateAddressPolicy (NFT_FETCH_PRIVATE)', () => {
  it('deny: public addresses only, no origin exempt', () => {
    expect(privateAddressPolicy('deny', 'http://localhost:4321/')).toEqual({ blocked: NON_PUBLIC_ADDRESSES, exemptOrigin: null });
  });

  it("site: the site's own origin (scheme, host and port) exempt, nothing else", () => {
    const site = privateAddressPolicy('site', 'http://localhost:4321/some/path');
    expect(site).toEqual({ blocked: NON_PUBLIC_ADDRESSES, exemptOrigin: 'http://localhost:4321' });
    expect(blockListFor(new URL('http://localhost:4321/world/nft/1.json'), site)).toBeNull();
    for (const other of ['http://localhost:4322/', 'https://localhost:4321/', 'http://127.0.0.1:4321/']) {
      expect(blockListFor(new URL(other), site)).toBe(NON_PUBLIC_ADDRESSES);
    }
  });

  it('allow: any address', () => {
    expect(privateAddressPolicy('allow', 'http://localhost:4321/')).toBe(ANY_ADDRESS);
    expect(blockListFor(new URL('http://127.0.0.1/'), ANY_ADDRESS)).toBeNull();
  });
});

describe('refusedTarget', () => {
  it('refuses schemes other than http(s)', () => {
    expect(refused('ftp://example.com/', null)).toBe('unsupported_scheme: unsupported URI scheme ftp:');
    expect(refused('data:text/plain,x', null)).toBe('unsupported_scheme: unsupported URI scheme data:');
  });

  it('refuses an IP literal in the block list, whatever way the URL writes it', () => {
    expect(refused('http://127.0.0.1/')).toBe('blocked_address: blocked address 127.0.0.1');
    expect(refused('http://0x7f.1/')).toBe('blocked_address: blocked address 127.0.0.1');
    expect(refused('http://2130706433/')).toBe('blocked_address: blocked address 127.0.0.1');
    expect(refused('http://[::ffff:169.254.169.254]/')).toBe('blocked_address: blocked address ::ffff:a9fe:a9fe');
    expect(refused('https://[2002:a00:1::1]/')).toBe('blocked_address: blocked address 2002:a00:1::1');
  });

  it('leaves names to the connection’s lookup, and public addresses alone', () => {
    expect(refused('http://localhost/')).toBeNull();
    expect(refused('http://8.8.8.8/')).toBeNull();
    expect(refused('https://[2606:4700::1111]/')).toBeNull();
    expect(refused('http://127.0.0.1/', null)).toBeNull();
  });
});
