import { type Fixed, fixedRatio, tokenUnit } from './decimal.ts';
import { fail, ok, type Result } from './result.ts';

// What an AMM pool says of its two tokens (docs/prices.md#sources), from Uniswap V2 reserves or a V3 square-root
// price alike: the price each way in human units, and the pool's worth in either token.

export interface PairDecimals {
  decimals0: number;
  decimals1: number;
}

export interface AmmQuote {
  /** One whole token0 in token1. */
  token0InToken1: Fixed;
  /** One whole token1 in token0. */
  token1InToken0: Fixed;
}

export type AmmQuoteCode = 'bad-decimals' | 'below-precision';

/**
 * Both prices from the raw ratio token1/token0 = ratioNumerator/ratioDenominator (base units):
 * token0 in token1 = ratio · 10^decimals0 / 10^decimals1. Refuses a price that rounds to 0 at 18 decimals.
 */
export function quoteFromRawRatio(ratioNumerator: bigint, ratioDenominator: bigint, decimals: PairDecimals): Result<AmmQuote, AmmQuoteCode> {
  const unit0 = tokenUnit(decimals.decimals0);
  const unit1 = tokenUnit(decimals.decimals1);
  if (unit0 === null || unit1 === null)
    return fail('bad-decimals', `token decimals must be whole numbers from 0 to 77, got ${decimals.decimals0} and ${decimals.decimals1}`);
  const token0InToken1 = fixedRatio(ratioNumerator * unit0, ratioDenominator * unit1);
  const token1InToken0 = fixedRatio(ratioDenominator * unit1, ratioNumerator * unit0);
  if (token0InToken1 === 0n || token1InToken0 === 0n) return fail('below-precision', 'one price of the pair is below 10^-18 and rounds to 0');
  return ok({ token0InToken1, token1InToken0 });
}
