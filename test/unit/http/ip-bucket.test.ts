import { describe, expect, it } from 'vitest';
import { normalizeIp } from '../../../src/api/client-ip.ts';
import { ipBucketOf, UNKNOWN_CLIENT_BUCKET } from '../../../src/http/ip-bucket.ts';

describe('ipBucketOf', () => {
  it('counts an IPv4 address on its own', () => {
    expect(ipBucketOf('203.0.113.5', 64)).toBe('203.0.113.5');
    expect(ipBucketOf('203.0.113.6', 64)).not.toBe(ipBucketOf('203.0.113.5', 64));
  });

  it('counts every address of one IPv6 /64 in one bucket, and other prefixes apart', () => {
    const bucket = ipBucketOf('2001:db8:0:1::1', 64);
    expect(bucket).toBe('2001:db8:0:1:0:0:0:0/64');
    for (const sibling of ['2001:db8:0:1::2', '2001:db8:0:1:ffff:ffff:ffff:ffff', '2001:0db8:0000:0001:0:0:0:9']) expect(ipBucketOf(sibling, 64)).toBe(bucket);
    expect(ipBucketOf('2001:db8:0:2::1', 64)).not.toBe(bucket);
  });

  it('takes a configured prefix length', () => {
    expect(ipBucketOf('2001:db8:aa:1::1', 48)).toBe(ipBucketOf('2001:db8:aa:ffff::1', 48));
    expect(ipBucketOf('2001:db8::1', 128)).not.toBe(ipBucketOf('2001:db8::2', 128));
    expect(ipBucketOf('::1', 128)).toBe('0:0:0:0:0:0:0:1/128');
    expect(ipBucketOf('64:ff9b::192.0.2.1', 128)).toBe('64:ff9b:0:0:0:0:c000:201/128');
  });

  it('puts unknown and unparseable clients in one shared bucket', () => {
    expect(ipBucketOf(null, 64)).toBe(UNKNOWN_CLIENT_BUCKET);
    expect(ipBucketOf(normalizeIp('not-an-ip'), 64)).toBe(UNKNOWN_CLIENT_BUCKET);
    expect(ipBucketOf('garbage', 64)).toBe(UNKNOWN_CLIENT_BUCKET);
  });
});
