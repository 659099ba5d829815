import { parseAbi } from 'viem';
import { type Fixed, fixedRatio, tokenUnit } from './decimal.ts';
import { type AmmQuote, type AmmQuoteCode, type PairDecimals, quoteFromRawRatio } from './amm-quote.ts';
import { fail, ok, type Result } from './result.ts';

// A Uniswap V2 pair's quote (docs/prices.md#sources): the price is the ratio of its reserves, and the pool holds
// as much of one token as of the other at that price, so its worth is twice either reserve.

/** What a reader calls on a pair. */
export const uniswapV2PairAbi = parseAbi([
  'function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)',
  'function token0() view returns (address)',
  'function token1() view returns (address)',
]);

export interface UniswapV2Reserves {
  reserve0: bigint;
  reserve1: bigint;
}

export interface UniswapV2Quote extends AmmQuote {
  /** The pool's worth in whole token0: 2 · reserve0. */
  liquidityInToken0: Fixed;
  /** The pool's worth in whole token1: 2 · reserve1. */
  liquidityInToken1: Fixed;
}

export type UniswapV2Code = AmmQuoteCode | 'empty-pool';

/** Prices and worth of a pair from `getReserves` and both tokens' decimals; an empty side is `empty-pool`. */
export function uniswapV2Quote(reserves: UniswapV2Reserves, decimals: PairDecimals): Result<UniswapV2Quote, UniswapV2Code> {
  if (reserves.reserve0 <= 0n || reserves.reserve1 <= 0n) {
    return fail('empty-pool', `the pair has no liquidity to price from (reserves ${reserves.reserve0} and ${reserves.reserve1})`);
  }
  const quote = quoteFromRawRatio(reserves.reserve1, reserves.reserve0, decimals);
  if (!quote.ok) return quote;
  // quoteFromRawRatio has checked the decimals.
  return ok({
    ...quote.value,
    liquidityInToken0: fixedRatio(2n * reserves.reserve0, tokenUnit(decimals.decimals0)!),
    liquidityInToken1: fixedRatio(2n * reserves.reserve1, tokenUnit(decimals.decimals1)!),
  });
}
