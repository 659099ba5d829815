import { describe, expect, it } from 'vitest';
import { clientIp, normalizeIp } from '../../../src/api/client-ip.ts';
import { trustProxySetting, type TrustProxy } from '../../../src/config/server.ts';

const source = (socketAddress: string | undefined, headers: Record<string, string> = {}) => ({
  socketAddress,
  header: (name: string) => headers[name],
});
const spoofed = { 'x-forwarded-for': '6.6.6.6', 'cf-connecting-ip': '6.6.6.6' };

describe('clientIp', () => {
  it('trusts only the socket peer by default, whatever the client sends', () => {
    const none: TrustProxy = { mode: 'none' };
    expect(clientIp(source('203.0.113.7', spoofed), none)).toBe('203.0.113.7');
    expect(clientIp(source('::ffff:127.0.0.1', spoofed), none)).toBe('127.0.0.1');
    expect(clientIp(source('2001:db8::1', spoofed), none)).toBe('2001:db8::1');
    expect(clientIp(source(undefined, spoofed), none)).toBeNull();
  });

  it('cloudflare mode reads CF-Connecting-IP only', () => {
    const cloudflare: TrustProxy = { mode: 'cloudflare' };
    expect(clientIp(source('10.0.0.1', { 'cf-connecting-ip': '198.51.100.4', 'x-forwarded-for': '6.6.6.6' }), cloudflare)).toBe('198.51.100.4');
    expect(clientIp(source('10.0.0.1', { 'x-forwarded-for': '6.6.6.6' }), cloudflare)).toBeNull();
    expect(clientIp(source('10.0.0.1', { 'cf-connecting-ip': 'not-an-ip' }), cloudflare)).toBeNull();
  });

  it('hops mode counts trusted proxies from the right of X-Forwarded-For', () => {
    const one: TrustProxy = { mode: 'hops', hops: 1 };
    const two: TrustProxy = { mode: 'hops', hops: 2 };
    // The client wrote 6.6.6.6; the one proxy appended the address it saw.
    expect(clientIp(source('10.0.0.1', { 'x-forwarded-for': '6.6.6.6, 198.51.100.4' }), one)).toBe('198.51.100.4');
    expect(clientIp(source('10.0.0.1', { 'x-forwarded-for': '6.6.6.6, 198.51.100.4, 10.0.0.9' }), two)).toBe('198.51.100.4');
    expect(clientIp(source('10.0.0.1', { 'x-forwarded-for': '198.51.100.4' }), two)).toBeNull();
    expect(clientIp(source('10.0.0.1', {}), one)).toBeNull();
  });

  it('reads X-Forwarded-For entries that carry a port', () => {
    const one: TrustProxy = { mode: 'hops', hops: 1 };
    expect(clientIp(source('10.0.0.1', { 'x-forwarded-for': '6.6.6.6, 203.0.113.5:4711' }), one)).toBe('203.0.113.5');
    expect(clientIp(source('10.0.0.1', { 'x-forwarded-for': '[2001:db8::1]:443' }), one)).toBe('2001:db8::1');
  });
});

describe('normalizeIp', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['[2001:db8::1]', '2001:db8::1'],
    [' 192.0.2.1 ', '192.0.2.1'],
    ['192.0.2.1:443', '192.0.2.1'],
    ['203.0.113.5:4711', '203.0.113.5'],
    ['[2001:db8::1]:443', '2001:db8::1'],
    ['[::ffff:192.0.2.1]:80', '192.0.2.1'],
    ['2001:DB8::1', '2001:db8::1'],
    ['fe80::1%eth0', 'fe80::1'],
    ['[fe80::1%25eth0]:443', 'fe80::1'],
    ['192.0.2.1:', null],
    ['192.0.2.1:99999999', null],
    ['[2001:db8::1]:x', null],
    ['999.0.0.1:80', null],
    ['<script>', null],
    ['', null],
  ])('%s -> %s', (input, expected) => expect(normalizeIp(input)).toBe(expected));
});

describe('TRUST_PROXY', () => {
  it.each([
    ['', { mode: 'none' }],
    ['none', { mode: 'none' }],
    ['cloudflare', { mode: 'cloudflare' }],
    ['1', { mode: 'hops', hops: 1 }],
    ['12', { mode: 'hops', hops: 12 }],
  ])('%s parses', (value, expected) => expect(trustProxySetting.parse(value)).toEqual(expected));

  it.each(['true', '0', '-1', '100', 'cloudfront'])('%s is refused', (value) => expect(trustProxySetting.safeParse(value).success).toBe(false));
});
