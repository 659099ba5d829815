import { describe, expect, it } from 'vitest';
import { hashIp } from '../../../src/faucet/ip-hash.ts';

describe('hashIp', () => {
  it('stores a keyed hash, never the address itself', () => {
    const hash = hashIp('203.0.113.7', 'salt-one-of-some-length');
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain('203.0.113.7');
    expect(hashIp('203.0.113.7', 'salt-two-of-some-length')).not.toBe(hash);
  });

  it('is stable, and treats an IPv4-mapped IPv6 address as the IPv4 client', () => {
    const salt = 'salt-one-of-some-length';
    expect(hashIp('203.0.113.7', salt)).toBe(hashIp('203.0.113.7', salt));
    expect(hashIp('::ffff:203.0.113.7', salt)).toBe(hashIp('203.0.113.7', salt));
    expect(hashIp('2001:DB8::1', salt)).toBe(hashIp('2001:db8::1', salt));
    expect(hashIp('203.0.113.8', salt)).not.toBe(hashIp('203.0.113.7', salt));
  });
});
