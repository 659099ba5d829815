import { describe, expect, it } from 'vitest';
import {
  decodeContractOwnersKey,
  decodeContractTokensKey,
  decodeOwnerContractsKey,
  decodeOwnerNftsKey,
  decodeTokenOwnersKey,
  encodeContractOwnersKey,
  encodeContractTokensKey,
  encodeOwnerContractsKey,
  encodeOwnerNftsKey,
  encodeTokenOwnersKey,
} from '../../../../src/nfts/api/page-key.ts';

// The opaque pageKeys of the NFT lists: what a key encodes comes back for the query it was given
// for; a key of another list, order or subject (owner, contract, token) is refused, and so is any
// text this did not write.

const OWNER = '0x4c7E7865D1a8F526DA67ccC11eE9960C30e7a1Ae';
const OTHER = '0x2222222222222222222222222222222222222222';
const contract = '0x1111111111111111111111111111111111111111' as const;
const cursor = { contract, tokenId: `${2n ** 255n}`, lastBlock: 12_345, lastLogIndex: 7 };

describe('NFT page keys', () => {
  it("round-trips an owner's cursor within its owner and order, and only there", () => {
    const key = encodeOwnerNftsKey(OWNER, 'transferTime', cursor);
    expect(key).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeOwnerNftsKey(OWNER.toLowerCase(), 'transferTime', key)).toEqual(cursor);
    expect(decodeOwnerNftsKey(OWNER, 'contract', key)).toBeNull();
    expect(decodeOwnerNftsKey(OTHER, 'transferTime', key)).toBeNull();
  });

  it("round-trips a contract's token and owner cursors, a token's owners and an owner's contracts, each for its own subject", () => {
    const tokens = encodeContractTokensKey(contract, '42');
    expect(decodeContractTokensKey(contract, tokens)).toBe('42');
    expect(decodeContractTokensKey(OTHER, tokens)).toBeNull();
    expect(decodeContractOwnersKey(contract, tokens)).toBeNull();

    const owners = encodeContractOwnersKey(contract, OWNER);
    expect(decodeContractOwnersKey(contract, owners)).toBe(OWNER.toLowerCase());
    expect(decodeContractOwnersKey(OTHER, owners)).toBeNull();

    const holders = encodeTokenOwnersKey(contract, '7', OWNER);
    expect(decodeTokenOwnersKey(contract, '7', holders)).toBe(OWNER.toLowerCase());
    expect(decodeTokenOwnersKey(contract, '8', holders)).toBeNull();

    const held = encodeOwnerContractsKey(OWNER, true, { contract, lastBlock: 3, lastLogIndex: 1 });
    expect(decodeOwnerContractsKey(OWNER, true, held)).toEqual({ contract, lastBlock: 3, lastLogIndex: 1 });
    expect(decodeOwnerContractsKey(OWNER, false, held)).toBeNull();
    expect(decodeOwnerContractsKey(OTHER, true, held)).toBeNull();
  });

  it.each([
    '',
    'not a key',
    'YQ',
    Buffer.from('c:1111:1:1:1').toString('base64url'),
    Buffer.from(`k:${contract.slice(2)}:01`).toString('base64url'),
    `${encodeOwnerNftsKey(OWNER, 'contract', cursor)}=`,
  ])('refuses %j', (key) => {
    expect(decodeOwnerNftsKey(OWNER, 'contract', key)).toBeNull();
    expect(decodeContractTokensKey(contract, key)).toBeNull();
  });
});
