import { describe, expect, it } from 'vitest';
import { isBlockedAddress, NON_PUBLIC_ADDRESSES } from '../../../src/net/blocked-addresses.ts';

const blocked = (address: string) => isBlockedAddress(address, NON_PUBLIC_ADDRESSES);

describe('NON_PUBLIC_ADDRESSES', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'IPv6 loopback'],
    ['10.0.0.1', 'RFC 1918'],
    ['172.16.0.1', 'RFC 1918'],
    ['172.31.255.255', 'RFC 1918'],
    ['192.168.1.1', 'RFC 1918'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['fe80::1', 'IPv6 link-local'],
    ['fe80::1%eth0', 'IPv6 link-local with a zone'],
    ['100.64.0.1', 'CGNAT'],
    ['100.127.255.254', 'CGNAT'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'IPv6 multicast'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'IPv6 unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.1', 'documentation (TEST-NET-1)'],
    ['198.51.100.1', 'documentation (TEST-NET-2)'],
    ['203.0.113.1', 'documentation (TEST-NET-3)'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, hex'],
    ['::ffff:10.1.2.3', 'IPv4-mapped private'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped link-local'],
    ['[::1]', 'bracketed'],
    ['localhost', 'not an address'],
  ])('blocks %s (%s)', (address) => {
    expect(blocked(address)).toBe(true);
  });

  it.each([
    ['100::1', 'discard-only (100::/64)'],
    ['100::ffff:ffff:ffff:ffff', 'discard-only (100::/64), its last address'],
    ['64:ff9b:1::808:808', 'local-use IPv4/IPv6 translation (64:ff9b:1::/48), even of a public IPv4'],
    ['64:ff9b:1:ffff::1', 'local-use IPv4/IPv6 translation (64:ff9b:1::/48)'],
    ['2001:db8::1', 'documentation (2001:db8::/32)'],
    ['3fff::1', 'documentation (3fff::/20)'],
    ['2001:2::1', 'benchmarking (2001:2::/48)'],
    ['2001:10::1', 'deprecated ORCHID (2001:10::/28)'],
    ['5f00::1', 'segment routing SIDs (5f00::/16)'],
  ])('blocks %s, non-public by definition: %s', (address) => {
    expect(blocked(address)).toBe(true);
  });

  // Forms that carry an IPv4 address: the IPv4 decides. Teredo's client address is stored XORed
  // with 0xffffffff (RFC 4380): 10.0.0.1 is f5ff:fffe, 127.0.0.1 is 80ff:fffe, 8.8.8.8 is f7f7:f7f7.
  it.each([
    ['64:ff9b::a9fe:a9fe', 'NAT64 (64:ff9b::/96) of 169.254.169.254'],
    ['64:ff9b::127.0.0.1', 'NAT64 of 127.0.0.1, dotted'],
    ['64:ff9b::a00:1', 'NAT64 of 10.0.0.1'],
    ['2002:7f00:1::1', '6to4 (2002::/16) of 127.0.0.1'],
    ['2002:c0a8:101::', '6to4 of 192.168.1.1'],
    ['2002:a9fe:a9fe:1:2:3:4:5', '6to4 of 169.254.169.254'],
    ['2001:0:4136:e378:8000:63bf:f5ff:fffe', 'Teredo (2001::/32), client 10.0.0.1'],
    ['2001::4136:e378:8000:63bf:80ff:fffe', 'Teredo, client 127.0.0.1'],
    ['2001:0:a00:1:8000:63bf:f7f7:f7f7', 'Teredo, server 10.0.0.1'],
    ['::ffff:0:a9fe:a9fe', 'IPv4-translated (::ffff:0:0:0/96) of 169.254.169.254'],
    ['::ffff:0:127.0.0.1', 'IPv4-translated of 127.0.0.1'],
    ['::127.0.0.1', 'IPv4-compatible (::/96) of 127.0.0.1'],
    ['::a9fe:a9fe', 'IPv4-compatible of 169.254.169.254'],
    ['::10.0.0.1', 'IPv4-compatible of 10.0.0.1'],
  ])('blocks %s: %s', (address) => {
    expect(blocked(address)).toBe(true);
  });

  it.each([
    ['64:ff9b::808:808', 'NAT64 of 8.8.8.8'],
    ['64:ff9b::1.1.1.1', 'NAT64 of 1.1.1.1, dotted'],
    ['2002:808:808::1', '6to4 of 8.8.8.8'],
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'Teredo, client 8.8.8.8 through server 65.54.227.120'],
    ['::ffff:0:808:808', 'IPv4-translated of 8.8.8.8'],
    ['::8.8.8.8', 'IPv4-compatible of 8.8.8.8'],
  ])('lets %s through: %s', (address) => {
    expect(blocked(address)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '169.255.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2001:4860:4860::8888'])(
    'lets %s through',
    (address) => {
      expect(blocked(address)).toBe(false);
    },
  );
});
