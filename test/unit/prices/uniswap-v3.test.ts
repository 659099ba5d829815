import { decodeFunctionResult, encodeFunctionResult } from 'viem';
import { describe, expect, it } from 'vitest';
import { formatDecimal, parseDecimal } from '../../../src/prices/decimal.ts';
import {
  arithmeticMeanTick,
  MAX_SQRT_RATIO,
  MAX_TICK,
  MIN_SQRT_RATIO,
  MIN_TICK,
  sqrtRatioAtTick,
  uniswapV3PoolAbi,
  uniswapV3Quote,
  uniswapV3TwapQuote,
} from '../../../src/prices/uniswap-v3.ts';

// "A Primer on Uniswap v3 Math" (Uniswap blog): the USDC/WETH 0.05% pool (token0 USDC, 6 decimals;
// token1 WETH, 18) at sqrtPriceX96 2018382873588440326581633304624437, tick 202919: 1 WETH = 1540.820552 USDC.
const PRIMER_SQRT_PRICE = 2018382873588440326581633304624437n;
const PRIMER_TICK = 202919;
const USDC_WETH = { decimals0: 6, decimals1: 18 };

const SCALE = 2n ** 256n;
const Q192 = 2n ** 192n;
/** 1.0001^exponent · 2^256 by squaring, each step truncated at 2^-256 (a relative error far below 10^-40 here). */
function powerOf10001(exponent: number): bigint {
  let result = SCALE;
  let base = (10001n * SCALE) / 10000n;
  for (let rest = exponent; rest > 0; rest >>= 1) {
    if (rest & 1) result = (result * base) / SCALE;
    base = (base * base) / SCALE;
  }
  return result;
}

describe('sqrtRatioAtTick', () => {
  it('gives TickMath.sol constants at the ends and 2^96 at tick 0', () => {
    expect(sqrtRatioAtTick(0)).toBe(2n ** 96n);
    expect(sqrtRatioAtTick(MIN_TICK)).toBe(MIN_SQRT_RATIO);
    expect(sqrtRatioAtTick(MAX_TICK)).toBe(MAX_SQRT_RATIO);
  });

  it('squares to 1.0001^tick within 10^-15 for every bit of the tick, both signs', () => {
    for (let bit = 0; bit < 20; bit++) {
      for (const tick of [2 ** bit, -(2 ** bit)]) {
        const square = sqrtRatioAtTick(tick) ** 2n;
        const power = powerOf10001(2 ** bit);
        // 1.0001^tick · 2^192 against sqrtRatio²: for a negative tick, 2^192 / power.
        const [actual, expected] = tick > 0 ? [square * SCALE, power * Q192] : [square * power, Q192 * SCALE];
        const error = actual > expected ? actual - expected : expected - actual;
        expect(error * 10n ** 15n, `tick ${tick}`).toBeLessThan(expected);
      }
    }
  });

  it('brackets the primer pool: its tick is the greatest whose ratio does not exceed the price', () => {
    expect(sqrtRatioAtTick(PRIMER_TICK)).toBeLessThanOrEqual(PRIMER_SQRT_PRICE);
    expect(sqrtRatioAtTick(PRIMER_TICK + 1)).toBeGreaterThan(PRIMER_SQRT_PRICE);
  });

  it('refuses ticks out of range', () => {
    expect(() => sqrtRatioAtTick(MAX_TICK + 1)).toThrow(RangeError);
    expect(() => sqrtRatioAtTick(MIN_TICK - 1)).toThrow(RangeError);
    expect(() => sqrtRatioAtTick(0.5)).toThrow(RangeError);
  });
});

describe('uniswapV3Quote', () => {
  it('prices the primer pool: 1 WETH = 1540.820552… USDC, 1 USDC = 0.000649004842701370 WETH', () => {
    const quote = uniswapV3Quote(PRIMER_SQRT_PRICE, USDC_WETH);
    if (!quote.ok) throw new Error(quote.error.message);
    expect(formatDecimal(quote.value.token1InToken0)).toBe('1540.820552028045688043');
    expect(quote.value.token0InToken1).toBe(parseDecimal('0.000649004842701370'));
    expect(quote.value.liquidityInToken0).toBeNull();
  });

  it('reports in-range liquidity as virtual reserves', () => {
    const quote = uniswapV3Quote(2n ** 96n, { decimals0: 18, decimals1: 18 }, 10n ** 18n);
    if (!quote.ok) throw new Error(quote.error.message);
    expect(formatDecimal(quote.value.token0InToken1)).toBe('1');
    expect(formatDecimal(quote.value.liquidityInToken0!)).toBe('2');
    expect(formatDecimal(quote.value.liquidityInToken1!)).toBe('2');
  });

  it('refuses a square-root price no pool can have, and bad decimals', () => {
    expect(uniswapV3Quote(0n, USDC_WETH)).toMatchObject({ ok: false, error: { code: 'bad-sqrt-price' } });
    expect(uniswapV3Quote(MAX_SQRT_RATIO + 1n, USDC_WETH)).toMatchObject({ ok: false, error: { code: 'bad-sqrt-price' } });
    expect(uniswapV3Quote(PRIMER_SQRT_PRICE, { decimals0: -1, decimals1: 18 })).toMatchObject({ ok: false, error: { code: 'bad-decimals' } });
    // The lowest price of all with 18 and 18 decimals: 2^-128, below 10^-18.
    expect(uniswapV3Quote(MIN_SQRT_RATIO, { decimals0: 18, decimals1: 18 })).toMatchObject({ ok: false, error: { code: 'below-precision' } });
  });
});

describe('arithmeticMeanTick', () => {
  it('divides the tick cumulatives by the window, rounding toward negative infinity', () => {
    expect(arithmeticMeanTick({ tickCumulatives: [100n, 100n + 202919n * 1800n], secondsAgo: 1800 })).toEqual({ ok: true, value: 202919 });
    expect(arithmeticMeanTick({ tickCumulatives: [0n, 7n], secondsAgo: 2 })).toEqual({ ok: true, value: 3 });
    expect(arithmeticMeanTick({ tickCumulatives: [0n, -7n], secondsAgo: 2 })).toEqual({ ok: true, value: -4 });
    expect(arithmeticMeanTick({ tickCumulatives: [0n, -6n], secondsAgo: 2 })).toEqual({ ok: true, value: -3 });
  });

  it('refuses an empty window and a mean outside the tick range', () => {
    expect(arithmeticMeanTick({ tickCumulatives: [0n, 0n], secondsAgo: 0 })).toMatchObject({ ok: false, error: { code: 'bad-window' } });
    expect(arithmeticMeanTick({ tickCumulatives: [0n, 0n], secondsAgo: 1.5 })).toMatchObject({ ok: false, error: { code: 'bad-window' } });
    expect(arithmeticMeanTick({ tickCumulatives: [0n, 887273n * 60n], secondsAgo: 60 })).toMatchObject({ ok: false, error: { code: 'tick-out-of-range' } });
  });
});

describe('uniswapV3TwapQuote', () => {
  it('prices the primer tick over 30 minutes within one tick of the spot price', () => {
    const twap = uniswapV3TwapQuote({ tickCumulatives: [5_000n, 5_000n + BigInt(PRIMER_TICK) * 1800n], secondsAgo: 1800 }, USDC_WETH);
    if (!twap.ok) throw new Error(twap.error.message);
    expect(twap.value.meanTick).toBe(PRIMER_TICK);
    // The tick's price is at or below the pool's (the tick is rounded down), by less than one tick (0.01%): 1 WETH costs at least as much USDC.
    const spot = parseDecimal('1540.820552028045688043')!;
    expect(twap.value.token1InToken0).toBeGreaterThanOrEqual(spot);
    expect((twap.value.token1InToken0 - spot) * 10_000n).toBeLessThan(spot);
  });

  it('prices a negative mean tick: WETH as token0 (18 decimals) in USDC (6) at tick −202919', () => {
    const twap = uniswapV3TwapQuote({ tickCumulatives: [1_000n, 1_000n - BigInt(PRIMER_TICK) * 600n], secondsAgo: 600 }, { decimals0: 18, decimals1: 6 });
    if (!twap.ok) throw new Error(twap.error.message);
    expect(twap.value.meanTick).toBe(-PRIMER_TICK);
    // 1.0001^-202919 · 10^12 = 1540.921115106840897653 47… (80-digit decimal arithmetic); TickMath is off by less than 10^-20 of it.
    const exact = parseDecimal('1540.921115106840897653')!;
    const error = twap.value.token0InToken1 - exact;
    expect(error < 0n ? -error : error).toBeLessThanOrEqual(1000n);
  });

  it("prices from a pool's encoded slot0 and observe answers, decoded with the pool ABI", () => {
    const slot0 = encodeFunctionResult({ abi: uniswapV3PoolAbi, functionName: 'slot0', result: [PRIMER_SQRT_PRICE, PRIMER_TICK, 1, 2, 2, 0, true] });
    const [sqrtPriceX96] = decodeFunctionResult({ abi: uniswapV3PoolAbi, functionName: 'slot0', data: slot0 });
    const spot = uniswapV3Quote(sqrtPriceX96, USDC_WETH);
    expect(spot.ok && formatDecimal(spot.value.token1InToken0)).toBe('1540.820552028045688043');
    const cumulatives = [-4_000n, -4_000n + BigInt(PRIMER_TICK) * 60n] as const;
    const observed = encodeFunctionResult({ abi: uniswapV3PoolAbi, functionName: 'observe', result: [cumulatives, [0n, 0n]] });
    const [tickCumulatives] = decodeFunctionResult({ abi: uniswapV3PoolAbi, functionName: 'observe', data: observed });
    const twap = uniswapV3TwapQuote({ tickCumulatives: [tickCumulatives[0]!, tickCumulatives[1]!], secondsAgo: 60 }, USDC_WETH);
    expect(twap.ok && twap.value.meanTick).toBe(PRIMER_TICK);
  });

  it('passes a bad window on', () => {
    expect(uniswapV3TwapQuote({ tickCumulatives: [0n, 0n], secondsAgo: -5 }, USDC_WETH)).toMatchObject({ ok: false, error: { code: 'bad-window' } });
  });
});
