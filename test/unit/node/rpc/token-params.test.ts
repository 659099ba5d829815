import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { encodePageKey } from '../../../../src/node/rpc/methods/token-page-key.ts';
import {
  parseTokenBalancesParams,
  parseTokenMetadataParams,
  TokenBalancesSpec,
  TokenHolder,
  TokenPageOptions,
  TokenParamsError,
} from '../../../../src/node/rpc/methods/token-params.ts';

const holder = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const contract = (n: number): `0x${string}` => `0x${n.toString(16).padStart(40, '0')}`;

function refusal(params: unknown[]): { param: string; problem: string; message: string } {
  try {
    parseTokenBalancesParams(params);
  } catch (error) {
    expect(error).toBeInstanceOf(TokenParamsError);
    const { param, problem, message } = error as TokenParamsError;
    return { param, problem, message };
  }
  throw new Error(`accepted ${JSON.stringify(params)}`);
}

describe('crucible_getTokenBalances params', () => {
  it('default to every ERC-20 of the index, 100 a page, addresses lower-cased', () => {
    expect(parseTokenBalancesParams([holder])).toEqual({ address: holder.toLowerCase(), spec: 'erc20', after: null, maxCount: 100 });
    expect(parseTokenBalancesParams([holder, null, null])).toEqual(parseTokenBalancesParams([holder]));
  });

  it('take NATIVE_TOKEN, and a list of 1 to 100 contracts in the order given, duplicates kept', () => {
    expect(parseTokenBalancesParams([holder, 'NATIVE_TOKEN']).spec).toBe('NATIVE_TOKEN');
    const list = [contract(2), contract(1).toUpperCase().replace('0X', '0x'), contract(2)];
    expect(parseTokenBalancesParams([holder, list]).spec).toEqual([contract(2), contract(1), contract(2)]);
    const hundred = Array.from({ length: 100 }, (_, i) => contract(i + 1));
    expect(parseTokenBalancesParams([holder, hundred]).spec).toHaveLength(100);
  });

  it('read the page options: pageKey to the contract after which the page starts, maxCount', () => {
    const query = parseTokenBalancesParams([holder, 'erc20', { pageKey: encodePageKey(contract(7)), maxCount: 3 }]);
    expect(query).toMatchObject({ after: contract(7), maxCount: 3 });
  });

  it('refuse what does not fit, naming the parameter as the gateway does', () => {
    expect(refusal([]).message).toBe('[0] address is required');
    expect(refusal(['0x1234']).message).toBe('[0] address must be a 20-byte address: "0x" and 40 hex digits');
    expect(refusal([42]).param).toBe('[0] address');
    expect(refusal([holder, 'erc721']).message).toBe('[1] spec must be "erc20", "NATIVE_TOKEN" or a list of 1 to 100 contract addresses');
    expect(refusal([holder, 7]).param).toBe('[1] spec');
    expect(refusal([holder, []]).message).toBe('[1] spec must list at least one contract address');
    expect(refusal([holder, Array.from({ length: 101 }, (_, i) => contract(i))]).message).toBe('[1] spec must list at most 100 contract addresses');
    expect(refusal([holder, [contract(1), 'nope']]).message).toBe('[1] spec[1] must be a 20-byte address: "0x" and 40 hex digits');
    expect(refusal([holder, 'erc20', { pageKey: 'abc' }]).message).toBe('[2] options.pageKey must be the pageKey of an earlier answer of this method');
    expect(refusal([holder, 'erc20', { pageKey: 12 }]).param).toBe('[2] options.pageKey');
    for (const maxCount of [0, 101, 2.5, '10'])
      expect(refusal([holder, 'erc20', { maxCount }]).message).toBe('[2] options.maxCount must be an integer from 1 to 100');
    expect(refusal([holder, 'erc20', { pagekey: 'x' }]).message).toBe('[2] options has no field pagekey: only pageKey and maxCount');
    expect(refusal([holder, 'erc20', []]).param).toBe('[2] options');
    expect(refusal([holder, 'erc20', {}, 'more']).message).toBe('params of crucible_getTokenBalances are at most 3, got 4');
  });

  it('are one schema per param for the registry, with JSON Schemas of their input', () => {
    for (const schema of [TokenHolder, TokenBalancesSpec, TokenPageOptions]) {
      expect(() => z.toJSONSchema(schema, { target: 'draft-07', io: 'input', unrepresentable: 'throw' })).not.toThrow();
    }
    expect(TokenBalancesSpec.safeParse([contract(1)]).success).toBe(true);
    expect(TokenBalancesSpec.safeParse('erc721').success).toBe(false);
    expect(TokenPageOptions.safeParse({ pageKey: 'x' }).success).toBe(false);
  });
});

describe('crucible_getTokenMetadata params', () => {
  it('take one contract address, lower-cased', () => {
    expect(parseTokenMetadataParams([contract(255).replace('ff', 'FF')])).toBe(contract(255));
    expect(() => parseTokenMetadataParams([])).toThrow('[0] contractAddress is required');
    expect(() => parseTokenMetadataParams(['0xzz'])).toThrow('[0] contractAddress must be a 20-byte address');
    expect(() => parseTokenMetadataParams([contract(1), 'latest'])).toThrow('at most 1, got 2');
  });
});
