import { encodeAbiParameters, encodeEventTopics, getAbiItem, toEventSelector, type Abi, type AbiEvent, type Address, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS } from '../../../../src/chain/world/artifacts.ts';
import { decodeMarketLogs } from '../../../../src/nfts/market/decode.ts';
import { MARKETPLACE_EVENTS, MARKETPLACE_TOPICS } from '../../../../src/nfts/market/events.ts';
import type { ChainLog } from '../../../../src/transfers/transfer.ts';

// Marketplace logs as the index keeps them: built with viem from the events' ABI, then broken in
// the ways another contract emitting the same signatures could break them.

const MARKET: Address = '0x98C2A06B149976EAB1ce5917429c5bfaFf71B5Ec';
const SELLER: Address = '0x1111111111111111111111111111111111111111';
const BUYER: Address = '0x2222222222222222222222222222222222222222';
const NFT: Address = '0x3333333333333333333333333333333333333333';
const TOKEN: Address = '0x4444444444444444444444444444444444444444';
const ROYALTY: Address = '0x5555555555555555555555555555555555555555';
const ZERO: Address = '0x0000000000000000000000000000000000000000';

let nextLogIndex = 0;
const log = (topics: Hex[], data: Hex, overrides: Partial<ChainLog> = {}): ChainLog => ({
  address: MARKET,
  topics,
  data,
  blockNumber: 9,
  blockHash: `0x${'cd'.repeat(32)}`,
  blockTimestamp: 1_700_000_000,
  transactionHash: `0x${'AB'.repeat(32)}`,
  transactionIndex: 0,
  logIndex: nextLogIndex++,
  removed: false,
  ...overrides,
});
const event = (name: 'Listed' | 'Cancelled' | 'Sold', indexed: Record<string, unknown>, data: readonly unknown[]): ChainLog => {
  const item = getAbiItem({ abi: MARKETPLACE_EVENTS as Abi, name }) as AbiEvent;
  const topics = encodeEventTopics({ abi: MARKETPLACE_EVENTS, eventName: name, args: indexed as never }) as Hex[];
  return log(
    topics,
    encodeAbiParameters(
      item.inputs.filter((input) => !input.indexed),
      data,
    ),
  );
};
const listed = (listingId: bigint, quantity: bigint, currency = ZERO) =>
  event('Listed', { listingId, seller: SELLER, collection: NFT }, [7n, quantity, currency, 5n * 10n ** 17n]);
const sold = (listingId: bigint, quantity: bigint, price: bigint, fee: bigint, royalty: bigint) =>
  event('Sold', { listingId, buyer: BUYER, seller: SELLER }, [NFT, 7n, quantity, TOKEN, price, fee, ROYALTY, royalty]);

describe('decodeMarketLogs', () => {
  it('reads listings, cancellations and sales, addresses lowercase and amounts decimal', () => {
    const decoded = decodeMarketLogs([listed(1n, 3n), event('Cancelled', { listingId: 2n, seller: SELLER }, []), sold(1n, 2n, 1000n, 25n, 50n)]);
    expect(decoded.skipped).toBe(0);
    expect(decoded.listings).toEqual([
      expect.objectContaining({
        marketplace: MARKET.toLowerCase(),
        listingId: '1',
        seller: SELLER,
        collection: NFT,
        tokenId: '7',
        quantity: 3,
        currency: ZERO,
        unitPrice: '500000000000000000',
        blockNumber: 9,
        transactionHash: `0x${'ab'.repeat(32)}`,
      }),
    ]);
    expect(decoded.cancellations).toEqual([expect.objectContaining({ marketplace: MARKET.toLowerCase(), listingId: '2' })]);
    expect(decoded.sales).toEqual([
      expect.objectContaining({
        listingId: '1',
        buyer: BUYER,
        seller: SELLER,
        quantity: 2,
        currency: TOKEN,
        price: '1000',
        marketplaceFee: '25',
        royaltyReceiver: ROYALTY,
        royaltyFee: '50',
        blockTimestamp: 1_700_000_000,
      }),
    ]);
  });

  it('skips what only another contract would emit: a wrong shape, no quantity, one beyond 2^53 - 1, fees above the price, a removed log', () => {
    const good = sold(1n, 1n, 100n, 1n, 1n);
    const decoded = decodeMarketLogs([
      log(good.topics.slice(0, 3), good.data),
      log(good.topics, good.data.slice(0, -64) as Hex),
      listed(2n, 0n),
      listed(3n, 2n ** 53n),
      sold(4n, 1n, 100n, 60n, 41n),
      { ...listed(5n, 1n), removed: true },
    ]);
    expect(decoded).toEqual({ listings: [], cancellations: [], sales: [], skipped: 6 });
    expect(decodeMarketLogs([listed(6n, 2n ** 53n - 1n)]).listings[0]?.quantity).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('follows exactly the events CrucibleMarketplace emits', () => {
    const signatures = (abi: Abi) =>
      abi.flatMap((item) => (item.type === 'event' && ['Listed', 'Cancelled', 'Sold'].includes(item.name) ? [toEventSelector(item)] : [])).sort();
    expect(signatures(ARTIFACTS.CrucibleMarketplace.abi)).toEqual([...MARKETPLACE_TOPICS].sort());
    // Which arguments are indexed is part of the shape too (the topic0 does not say it).
    const indexed = (abi: Abi, name: string) => (getAbiItem({ abi, name }) as AbiEvent).inputs.map((input) => [input.name, input.indexed ?? false]);
    for (const name of ['Listed', 'Cancelled', 'Sold']) expect(indexed(ARTIFACTS.CrucibleMarketplace.abi, name)).toEqual(indexed(MARKETPLACE_EVENTS, name));
  });
});
