import { describe, expect, it } from 'vitest';
import { decodeSalesPageKey, encodeSalesPageKey } from '../../../../src/nfts/market/page-key.ts';
import { blockOf, NftSalesQuery, salesQueryFingerprint } from '../../../../src/nfts/market/params.ts';
import { readSdkQuery } from '../../../../src/rest/query.ts';

// getNFTSales' query as alchemy-sdk sends it, read by the door's own reader: defaults, block tags,
// the rules across parameters, and page keys that belong to one query.

const RELICS = '0x86fdDa8201FB83D35E2335Bc1F372576B605bE54';
const read = (search: string) => readSdkQuery(NftSalesQuery, search);
const problem = (search: string) => {
  const answer = read(search);
  return answer.ok ? null : answer.problem;
};

describe('getNFTSales query', () => {
  it('defaults to every block, oldest first, 1,000 a page', () => {
    expect(read('')).toEqual({ ok: true, query: { fromBlock: '0', toBlock: 'latest', order: 'asc', limit: 1000 } });
  });

  it('takes block numbers in decimal or hexadecimal, and latest', () => {
    expect(blockOf('0x1f')).toBe(31);
    expect(blockOf('31')).toBe(31);
    expect(blockOf('latest')).toBe('latest');
    expect(read('fromBlock=0x10&toBlock=latest').ok).toBe(true);
    expect(problem('fromBlock=earliest')).toMatch(/^fromBlock must be a block number/);
    expect(problem(`toBlock=${2 ** 53}`)).toMatch(/^toBlock must be a block number/);
  });

  it('refuses a token without its collection, a range that ends before it starts, and a taker of another kind', () => {
    expect(problem('tokenId=5')).toBe('tokenId needs contractAddress: a token id names a token of one collection.');
    expect(problem(`tokenId=5&contractAddress=${RELICS}`)).toBeNull();
    expect(problem('fromBlock=0x10&toBlock=15')).toBe('fromBlock (16) is after toBlock (15).');
    expect(problem('fromBlock=16&toBlock=16')).toBeNull();
    expect(problem('taker=maker')).toMatch(/^taker must be buyer or seller/);
    expect(problem('taker=BUYER')).toBeNull();
  });

  it('gives page keys that only the same filters and order take back', () => {
    const base = NftSalesQuery.parse({ contractAddress: RELICS, taker: 'buyer' });
    const key = encodeSalesPageKey(salesQueryFingerprint(base), { blockNumber: 120, logIndex: 3 });
    // The same query however it is spelled: address case, taker case, a hex block number for the same default.
    expect(problem(`contractAddress=${RELICS.toLowerCase()}&taker=BUYER&fromBlock=0x0&pageKey=${key}`)).toBeNull();
    expect(decodeSalesPageKey(salesQueryFingerprint(base), key)).toEqual({ blockNumber: 120, logIndex: 3 });
    for (const other of [`contractAddress=${RELICS}&taker=buyer&order=desc`, `contractAddress=${RELICS}`, `contractAddress=${RELICS}&taker=buyer&toBlock=99`])
      expect(problem(`${other}&pageKey=${key}`)).toMatch(/^pageKey is not one this endpoint gave/);
    expect(problem('pageKey=czE6')).toMatch(/^pageKey is not one/);
    expect(problem('pageKey=%2F%2F')).toMatch(/^pageKey is not one/);
  });
});
