import { describe, expect, it } from 'vitest';
import { decodeNftPageKey, encodeNftPageKey } from '../../../../src/nfts/api/page-key.ts';

// The opaque pageKey of an owner's NFTs: what it encodes comes back; nothing else is taken.

const cursor = { contract: '0x1111111111111111111111111111111111111111' as const, tokenId: `${2n ** 255n}`, lastBlock: 12_345, lastLogIndex: 7 };

describe('NFT page keys', () => {
  it('round-trips a cursor within its order, and only there', () => {
    const key = encodeNftPageKey('transferTime', cursor);
    expect(key).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeNftPageKey('transferTime', key)).toEqual(cursor);
    expect(decodeNftPageKey('contract', key)).toBeNull();
  });

  it.each(['', 'not a key', 'YQ', Buffer.from('c:1111:1:1:1').toString('base64url'), `${encodeNftPageKey('contract', cursor)}=`])('refuses %j', (key) => {
    expect(decodeNftPageKey('contract', key)).toBeNull();
  });
});
