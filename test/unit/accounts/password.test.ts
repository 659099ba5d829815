import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, parsePasswordHash, PASSWORD_HASHING, verifyPassword } from '../../../src/accounts/password.ts';

// Password hashing (docs/dashboard.md#passwords): scrypt with the parameters written into the hash, so a hash made
// with lower ones still verifies and asks to be made again.

const cheap = { ...PASSWORD_HASHING, N: 2 ** 10 };

describe('password hashes', () => {
  it('uses scrypt N=2^17, r=8, p=1 (OWASP’s minimum), a 16-byte salt and a 64-byte key, and writes them into the hash', async () => {
    expect(PASSWORD_HASHING).toEqual({ N: 131072, r: 8, p: 1, saltBytes: 16, keyBytes: 64 });
    // 128·N·r = 128 MiB: more than node's default maxmem (32 MiB), which must be raised for it.
    const stored = await hashPassword('correct horse battery staple');
    expect(stored).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{86}$/);
    const parsed = parsePasswordHash(stored)!;
    expect([parsed.N, parsed.r, parsed.p, parsed.salt.length, parsed.key.length]).toEqual([131072, 8, 1, 16, 64]);
    expect(await verifyPassword('correct horse battery staple', stored)).toBe(true);
    expect(await verifyPassword('correct horse battery stapler', stored)).toBe(false);
    expect(needsRehash(stored)).toBe(false);
  });

  it('salts every hash, so one password never hashes the same twice', async () => {
    const [a, b] = await Promise.all([hashPassword('same password', cheap), hashPassword('same password', cheap)]);
    expect(a).not.toBe(b);
    expect(await verifyPassword('same password', a)).toBe(true);
    expect(await verifyPassword('same password', b)).toBe(true);
  });

  it('verifies a hash made with lower parameters, and says it wants them raised', async () => {
    const old = await hashPassword('an older password', cheap);
    expect(old.startsWith('scrypt$1024$8$1$')).toBe(true);
    expect(await verifyPassword('an older password', old)).toBe(true);
    expect(needsRehash(old)).toBe(true);
    // The hashes of the former default, N=2^15, too.
    expect(needsRehash(await hashPassword('an older password', { ...PASSWORD_HASHING, N: 2 ** 15 }))).toBe(true);
  });

  it('compares passwords in Unicode NFC: a composed and a decomposed é are one password', async () => {
    const stored = await hashPassword('caf\u00e9 au lait!', cheap);
    expect(await verifyPassword('cafe\u0301 au lait!', stored)).toBe(true);
  });

  it('matches nothing against a hash it did not write', async () => {
    for (const stored of ['', 'plain', 'bcrypt$10$x', 'scrypt$1000$8$1$c2FsdHNhbHQ$a2V5a2V5a2V5a2V5a2V5', 'scrypt$1024$0$1$c2FsdHNhbHQ$a2V5a2V5a2V5a2V5a2V5']) {
      expect(parsePasswordHash(stored), stored).toBeNull();
      expect(await verifyPassword('anything at all', stored)).toBe(false);
      expect(needsRehash(stored)).toBe(true);
    }
  });
});
