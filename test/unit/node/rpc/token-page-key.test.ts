import { describe, expect, it } from 'vitest';
import { decodePageKey, encodePageKey } from '../../../../src/node/rpc/methods/token-page-key.ts';

describe('page keys', () => {
  it('name the last contract of a page and read back to it', () => {
    const contract = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
    const key = encodePageKey(contract);
    expect(key).toMatch(/^[A-Za-z0-9_-]{27}$/);
    expect(decodePageKey(key)).toBe(contract);
    expect(decodePageKey(encodePageKey('0xffffffffffffffffffffffffffffffffffffffff'))).toBe('0xffffffffffffffffffffffffffffffffffffffff');
  });

  it('refuse anything this method did not give', () => {
    const key = encodePageKey('0x5fbdb2315678afecb367f032d93f642f64180aa3');
    expect(decodePageKey('')).toBeNull();
    expect(decodePageKey(key.slice(1))).toBeNull();
    expect(decodePageKey(`${key}A`)).toBeNull();
    expect(decodePageKey(`${key}=`)).toBeNull();
    expect(decodePageKey(key.replace(/.$/, '!'))).toBeNull();
    // The last character carries 2 unused bits: the same bytes spelled with one of them set are not a key.
    const last = key.at(-1)!;
    expect('AEIMQUYcgkosw048').toContain(last);
    expect(decodePageKey(key.slice(0, -1) + String.fromCharCode(last.charCodeAt(0) + 1))).toBeNull();
    expect(decodePageKey('0x5fbdb2315678afecb367f032d93f642f64180aa3')).toBeNull();
  });
});
