import { encodeAbiParameters, stringToHex, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { decodeContractReads } from '../../../../src/nfts/contracts/contract-reads.ts';
import type { ReadOutcome } from '../../../../src/chain/multicall-reads.ts';

// The order of a contract's reads: supportsInterface(ERC-721), (ERC-1155), (0xffffffff), name, symbol, totalSupply, token URI.
const yes: ReadOutcome = { success: true, returnData: encodeAbiParameters([{ type: 'bool' }], [true]) };
const no: ReadOutcome = { success: true, returnData: encodeAbiParameters([{ type: 'bool' }], [false]) };
const reverted: ReadOutcome = { success: false, returnData: '0x' };
const text = (value: string): ReadOutcome => ({ success: true, returnData: encodeAbiParameters([{ type: 'string' }], [value]) });
const word = (value: bigint): ReadOutcome => ({ success: true, returnData: encodeAbiParameters([{ type: 'uint256' }], [value]) });
const raw = (returnData: Hex): ReadOutcome => ({ success: true, returnData });

describe('decodeContractReads', () => {
  it('reads an ERC-721 with a total supply and an http token URI', () => {
    expect(decodeContractReads([yes, no, no, text('Drop Pass'), text('DROP'), word(500n), text('http://LocalHost:4321/world/nft/airdrop/pass.json')])).toEqual({
      standard: 'ERC721',
      name: 'Drop Pass',
      symbol: 'DROP',
      totalSupply: '500',
      tokenUriHost: 'localhost',
    });
  });

  it('reads an ERC-1155 without totalSupply, a bytes32 name, and no host for a data: or ipfs: URI', () => {
    const facts = decodeContractReads([no, yes, no, raw(stringToHex('Materials', { size: 32 })), reverted, reverted, text('ipfs://bafy/{id}.json')]);
    expect(facts).toEqual({ standard: 'ERC1155', name: 'Materials', symbol: null, totalSupply: null, tokenUriHost: null });
    expect(decodeContractReads([yes, no, no, reverted, reverted, reverted, text('data:application/json;base64,e30=')]).tokenUriHost).toBeNull();
  });

  it('takes a contract that says yes to every interface, or has no ERC-165, at nothing', () => {
    expect(decodeContractReads([yes, yes, yes, reverted, reverted, reverted]).standard).toBe('none');
    expect(decodeContractReads([reverted, reverted, reverted, text('Punks'), text('PUNK'), word(1000n)])).toEqual({
      standard: 'none',
      name: 'Punks',
      symbol: 'PUNK',
      totalSupply: '1000',
      tokenUriHost: null,
    });
  });

  it('gives nothing for an address that answers every call empty, nor for a "true" that is not exactly one', () => {
    const empty = raw('0x');
    expect(decodeContractReads([empty, empty, empty, empty, empty, empty])).toEqual({
      standard: 'none',
      name: null,
      symbol: null,
      totalSupply: null,
      tokenUriHost: null,
    });
    expect(decodeContractReads([word(2n), no, no]).standard).toBe('none');
  });
});
