import { parseAbi } from 'viem';
import { type AmmQuote, type AmmQuoteCode, type PairDecimals, quoteFromRawRatio } from './amm-quote.ts';
import { type Fixed, fixedRatio, tokenUnit } from './decimal.ts';
import { fail, ok, type Result } from './result.ts';

// A Uniswap V3 pool's quote (docs/prices.md#sources): the spot price from slot0's sqrt(token1/token0) as Q64.96, and
// the time-weighted price from the arithmetic mean tick of `observe`, turned into a square-root price
// by the pool's own TickMath so that both are computed as the chain computes them.

/** What a reader calls on a pool. */
export const uniswapV3PoolAbi = parseAbi([
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)',
  'function liquidity() view returns (uint128)',
  'function observe(uint32[] secondsAgos) view returns (int56[] tickCumulatives, uint160[] secondsPerLiquidityCumulativeX128s)',
  'function token0() view returns (address)',
  'function token1() view returns (address)',
]);

export const MIN_TICK = -887272;
export const MAX_TICK = 887272;
/** getSqrtRatioAtTick(MIN_TICK) and getSqrtRatioAtTick(MAX_TICK): the range of a pool's square-root price. */
export const MIN_SQRT_RATIO = 4295128739n;
export const MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342n;
const Q96 = 2n ** 96n;
const Q192 = 2n ** 192n;
const UINT256_MAX = 2n ** 256n - 1n;

/** sqrt(1.0001^|tick| bit) as Q128.128, inverted (TickMath.sol): ratio · these >> 128 for each bit of |tick| above the first. */
const TICK_BIT_FACTORS: readonly bigint[] = [
  0xfff97272373d413259a46990580e213an,
  0xfff2e50f5f656932ef12357cf3c7fdccn,
  0xffe5caca7e10e4e61c3624eaa0941cd0n,
  0xffcb9843d60f6159c9db58835c926644n,
  0xff973b41fa98c081472e6896dfb254c0n,
  0xff2ea16466c96a3843ec78b326b52861n,
  0xfe5dee046a99a2a811c461f1969c3053n,
  0xfcbe86c7900a88aedcffc83b479aa3a4n,
  0xf987a7253ac413176f2b074cf7815e54n,
  0xf3392b0822b70005940c7a398e4b70f3n,
  0xe7159475a2c29b7443b29c7fa6e889d9n,
  0xd097f3bdfd2022b8845ad8f792aa5825n,
  0xa9f746462d870fdf8a65dc1f90e061e5n,
  0x70d869a156d2a1b890bb3df62baf32f7n,
  0x31be135f97d08fd981231505542fcfa6n,
  0x9aa508b5b7a84e1c677de54f3e99bc9n,
  0x5d6af8dedb81196699c329225ee604n,
  0x2216e584f5fa1ea926041bedfe98n,
  0x48a170391f7dc42444e8fa2n,
];

/**
 * sqrt(1.0001^tick) · 2^96 exactly as Uniswap V3's TickMath.getSqrtRatioAtTick computes it (rounded up to
 * an integer): its relative error is at most 1/result, below 10^-20 for every tick above −409,800.
 * Throws RangeError outside [MIN_TICK, MAX_TICK].
 */
export function sqrtRatioAtTick(tick: number): bigint {
  if (!Number.isInteger(tick) || tick < MIN_TICK || tick > MAX_TICK)
    throw new RangeError(`tick must be an integer from ${MIN_TICK} to ${MAX_TICK}, got ${tick}`);
  const absTick = Math.abs(tick);
  let ratio = absTick & 1 ? 0xfffcb933bd6fad37aa2d162d1a594001n : 2n ** 128n;
  for (const [index, factor] of TICK_BIT_FACTORS.entries()) {
    if (absTick & (2 << index)) ratio = (ratio * factor) >> 128n;
  }
  if (tick > 0) ratio = UINT256_MAX / ratio;
  return (ratio >> 32n) + (ratio % (1n << 32n) === 0n ? 0n : 1n);
}

export interface UniswapV3Quote extends AmmQuote {
  /** The pool's in-range liquidity as virtual reserves at this price, in whole token0 and token1 (2·L/√P and 2·L·√P); null without `liquidity`. */
  liquidityInToken0: Fixed | null;
  liquidityInToken1: Fixed | null;
}

export type UniswapV3Code = AmmQuoteCode | 'bad-sqrt-price' | 'bad-window' | 'tick-out-of-range';

/** Prices from a square-root price (slot0's, or a mean tick's), and the worth of `liquidity` when given. */
export function uniswapV3Quote(sqrtPriceX96: bigint, decimals: PairDecimals, liquidity?: bigint): Result<UniswapV3Quote, UniswapV3Code> {
  if (sqrtPriceX96 < MIN_SQRT_RATIO || sqrtPriceX96 > MAX_SQRT_RATIO) {
    return fail('bad-sqrt-price', `sqrtPriceX96 ${sqrtPriceX96} is outside a pool's range [${MIN_SQRT_RATIO}, ${MAX_SQRT_RATIO}]`);
  }
  const quote = quoteFromRawRatio(sqrtPriceX96 * sqrtPriceX96, Q192, decimals);
  if (!quote.ok) return quote;
  if (liquidity === undefined || liquidity < 0n) return ok({ ...quote.value, liquidityInToken0: null, liquidityInToken1: null });
  // quoteFromRawRatio has checked the decimals. Virtual reserves: x = L / √P, y = L · √P (in base units).
  return ok({
    ...quote.value,
    liquidityInToken0: fixedRatio(2n * liquidity * Q96, sqrtPriceX96 * tokenUnit(decimals.decimals0)!),
    liquidityInToken1: fixedRatio(2n * liquidity * sqrtPriceX96, Q96 * tokenUnit(decimals.decimals1)!),
  });
}

/** `observe([secondsAgo, 0])`'s tick cumulatives, oldest first. */
export interface TwapWindow {
  tickCumulatives: readonly [bigint, bigint];
  secondsAgo: number;
}

/** The arithmetic mean tick over the window, rounded toward negative infinity as OracleLibrary.consult does. */
export function arithmeticMeanTick(window: TwapWindow): Result<number, 'bad-window' | 'tick-out-of-range'> {
  if (!Number.isInteger(window.secondsAgo) || window.secondsAgo <= 0 || window.secondsAgo > 2 ** 32 - 1) {
    return fail('bad-window', `secondsAgo must be a whole number of seconds from 1 to 2^32 − 1, got ${window.secondsAgo}`);
  }
  const delta = window.tickCumulatives[1] - window.tickCumulatives[0];
  const seconds = BigInt(window.secondsAgo);
  let tick = delta / seconds;
  if (delta < 0n && delta % seconds !== 0n) tick -= 1n;
  if (tick < BigInt(MIN_TICK) || tick > BigInt(MAX_TICK)) return fail('tick-out-of-range', `the mean tick ${tick} is outside [${MIN_TICK}, ${MAX_TICK}]`);
  return ok(Number(tick));
}

/** The time-weighted prices over `observe`'s window: 1.0001^meanTick through TickMath, then as a spot price. */
export function uniswapV3TwapQuote(window: TwapWindow, decimals: PairDecimals): Result<UniswapV3Quote & { meanTick: number }, UniswapV3Code> {
  const meanTick = arithmeticMeanTick(window);
  if (!meanTick.ok) return meanTick;
  const quote = uniswapV3Quote(sqrtRatioAtTick(meanTick.value), decimals);
  return quote.ok ? ok({ ...quote.value, meanTick: meanTick.value }) : quote;
}
