import { decodeFunctionResult, encodeFunctionResult } from 'viem';
import { describe, expect, it } from 'vitest';
import { formatDecimal } from '../../../src/prices/decimal.ts';
import { uniswapV2PairAbi, uniswapV2Quote } from '../../../src/prices/uniswap-v2.ts';

const USDC = 10n ** 6n;
const ETH = 10n ** 18n;

describe('uniswapV2Quote', () => {
  it('prices a pool of 3,000,000 USDC and 1,000 ETH (token0 USDC, 6 decimals; token1 WETH, 18) at 3000', () => {
    const quote = uniswapV2Quote({ reserve0: 3_000_000n * USDC, reserve1: 1_000n * ETH }, { decimals0: 6, decimals1: 18 });
    if (!quote.ok) throw new Error(quote.error.message);
    expect(formatDecimal(quote.value.token1InToken0)).toBe('3000');
    expect(formatDecimal(quote.value.token0InToken1)).toBe('0.000333333333333333');
    expect(formatDecimal(quote.value.liquidityInToken0)).toBe('6000000');
    expect(formatDecimal(quote.value.liquidityInToken1)).toBe('2000');
  });

  it("prices from a pair's encoded getReserves answer, decoded with the pair ABI", () => {
    const data = encodeFunctionResult({ abi: uniswapV2PairAbi, functionName: 'getReserves', result: [3_000_000n * USDC, 1_000n * ETH, 1_700_000_000] });
    const [reserve0, reserve1] = decodeFunctionResult({ abi: uniswapV2PairAbi, functionName: 'getReserves', data });
    const quote = uniswapV2Quote({ reserve0, reserve1 }, { decimals0: 6, decimals1: 18 });
    expect(quote.ok && formatDecimal(quote.value.token1InToken0)).toBe('3000');
  });

  it('prices the same pool the other way round (token0 WETH, 18 decimals; token1 USDC, 6)', () => {
    const quote = uniswapV2Quote({ reserve0: 1_000n * ETH, reserve1: 3_000_000n * USDC }, { decimals0: 18, decimals1: 6 });
    if (!quote.ok) throw new Error(quote.error.message);
    expect(formatDecimal(quote.value.token0InToken1)).toBe('3000');
    expect(formatDecimal(quote.value.liquidityInToken1)).toBe('6000000');
  });

  it('keeps every digit of uneven reserves', () => {
    // 1,234.567890123456789012 WETH against 3,703,703.703704 USDC.
    const quote = uniswapV2Quote({ reserve0: 1_234_567_890_123_456_789_012n, reserve1: 3_703_703_703_704n }, { decimals0: 18, decimals1: 6 });
    if (!quote.ok) throw new Error(quote.error.message);
    // 3703703.703704 / 1234.567890123456789012 = 3000.000027000240245703 0022…
    expect(formatDecimal(quote.value.token0InToken1)).toBe('3000.000027000240245703');
  });

  it('refuses an empty pool, bad decimals, and a price below 10^-18', () => {
    expect(uniswapV2Quote({ reserve0: 0n, reserve1: 0n }, { decimals0: 18, decimals1: 6 })).toMatchObject({ ok: false, error: { code: 'empty-pool' } });
    expect(uniswapV2Quote({ reserve0: 1_000n * ETH, reserve1: 0n }, { decimals0: 18, decimals1: 6 })).toMatchObject({
      ok: false,
      error: { code: 'empty-pool' },
    });
    expect(uniswapV2Quote({ reserve0: 1n, reserve1: 1n }, { decimals0: 18, decimals1: 80 })).toMatchObject({ ok: false, error: { code: 'bad-decimals' } });
    expect(uniswapV2Quote({ reserve0: 10n ** 40n, reserve1: 1n }, { decimals0: 18, decimals1: 18 })).toMatchObject({
      ok: false,
      error: { code: 'below-precision' },
    });
  });
});
