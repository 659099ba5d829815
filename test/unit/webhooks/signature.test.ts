import { describe, expect, it } from 'vitest';
import { signatureHeaders } from '../../../src/webhooks/signature.ts';

describe('signatureHeaders', () => {
  // Expected values from Python's hmac module: hmac.new(b'Jefe', message, hashlib.sha256).hexdigest().
  const headers = signatureHeaders('what do ya want for nothing?', 'Jefe', 1_764_000_000_999);

  it('signs the raw body alone in X-Alchemy-Signature, as the incumbent does (RFC 4231 test case 2)', () => {
    expect(headers['x-alchemy-signature']).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });

  it('sends the time in unix seconds and signs "<timestamp>.<body>" in X-Crucible-Signature', () => {
    expect(headers['x-crucible-timestamp']).toBe('1764000000');
    expect(headers['x-crucible-signature']).toBe('5a69bfde1efa679057c0e479ffb71239b5e86b5acad1945a56c0fc0a3c714843');
    expect(Object.keys(headers).sort()).toEqual(['x-alchemy-signature', 'x-crucible-signature', 'x-crucible-timestamp']);
  });
});
