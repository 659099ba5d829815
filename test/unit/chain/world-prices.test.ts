import { getAddress, parseUnits, type Address } from 'viem';
import { describe, expect, it } from 'vitest';
import { WORLD_DEPLOYER } from '../../../src/chain/world/actors.ts';
import { FEED_CHECK_SECONDS, FEED_HEARTBEAT_SECONDS, staleFeeds } from '../../../src/chain/world/feed-heartbeat.ts';
import { firstLiquidity, worldHoldings } from '../../../src/chain/world/history.ts';
import { WORLD_CONTRACTS } from '../../../src/chain/world/manifest.ts';
import {
  FEED_DECIMALS,
  PRICE_LAYER_CONTRACTS,
  WORLD_FEEDS,
  WORLD_POOLS,
  WORLD_PRICE_SOURCES,
  WORLD_TOKEN_ADDRESSES,
  worldErc20Address,
  worldTokenDecimals,
} from '../../../src/chain/world/price-layer.ts';
import { getAmountOut } from '../../../src/chain/world/swap.ts';
import { formatDecimal } from '../../../src/prices/decimal.ts';
import { uniswapV2Quote } from '../../../src/prices/uniswap-v2.ts';

// The local world's price layer as data: addresses, seeds and the prices they make, the feeds, the
// holdings it leaves, the heartbeat's rule and the swap's arithmetic.

const poolPrice = (pool: (typeof WORLD_POOLS)[number], reserve0: bigint, reserve1: bigint): string => {
  const quote = uniswapV2Quote({ reserve0, reserve1 }, { decimals0: worldTokenDecimals(pool.token0), decimals1: worldTokenDecimals(pool.token1) });
  if (!quote.ok) throw new Error(quote.error.message);
  return formatDecimal(pool.base === pool.token0 ? quote.value.token0InToken1 : quote.value.token1InToken0);
};

describe('the price layer', () => {
  it('gives every contract and pair its own checksummed address, apart from the rest of the world', () => {
    const addresses = [...WORLD_CONTRACTS, ...PRICE_LAYER_CONTRACTS, ...WORLD_POOLS].map((contract) => contract.address);
    expect(new Set(addresses.map((address) => address.toLowerCase())).size).toBe(addresses.length);
    for (const address of addresses) expect(address).toBe(getAddress(address));
  });

  it('has no pair whose address ends in the byte 0xff, for which SLAG’s balanceOf reverts (the pairs read their balances)', () => {
    for (const pool of WORLD_POOLS) expect(pool.address.toLowerCase().endsWith('ff'), pool.id).toBe(false);
  });

  it('orders each pair’s tokens by address, as Uniswap does, and names the manifest’s token ids and weth', () => {
    for (const pool of WORLD_POOLS) {
      expect(BigInt(WORLD_TOKEN_ADDRESSES[pool.token0]) < BigInt(WORLD_TOKEN_ADDRESSES[pool.token1]), pool.id).toBe(true);
      expect([pool.token0, pool.token1].sort()).toEqual([pool.base, pool.quote].sort());
      expect(pool.id).toBe(`${pool.base}-${pool.quote}`);
    }
    expect(Object.keys(WORLD_TOKEN_ADDRESSES).sort()).toEqual(['bare', 'cusd', 'ember', 'forge', 'slag', 'weth']);
  });

  it('seeds each pool at its price: 3000 cUSD per WETH, 2.5 per FORGE, 1.2 per EMBR, 0.1 FORGE per SLAG', () => {
    const prices = Object.fromEntries(WORLD_POOLS.map((pool) => [pool.id, poolPrice(pool, pool.seed0, pool.seed1)]));
    expect(prices).toEqual({ 'weth-cusd': '3000', 'forge-cusd': '2.5', 'ember-cusd': '1.2', 'slag-forge': '0.1' });
    const wethCusd = WORLD_POOLS.find((pool) => pool.id === 'weth-cusd')!;
    expect([wethCusd.seed0, wethCusd.seed1]).toEqual([parseUnits('300000', 6), parseUnits('100', 18)]);
  });

  it('has three dollar feeds at 8 decimals, as Chainlink’s', () => {
    expect(WORLD_FEEDS.map(({ id, token, description, decimals, answer }) => ({ id, token, description, decimals, answer }))).toEqual([
      { id: 'eth-usd', token: 'weth', description: 'ETH / USD', decimals: 8, answer: 300_000_000_000n },
      { id: 'cusd-usd', token: 'cusd', description: 'cUSD / USD', decimals: 8, answer: 100_000_000n },
      { id: 'forge-usd', token: 'forge', description: 'FORGE / USD', decimals: 8, answer: 250_000_000n },
    ]);
    expect(FEED_DECIMALS).toBe(8);
  });

  it('exports what a price reader needs: tokens, pools in pair order, feeds with what they price', () => {
    expect(WORLD_PRICE_SOURCES.tokens.weth).toBe(PRICE_LAYER_CONTRACTS.find((contract) => contract.id === 'weth')!.address);
    expect(WORLD_PRICE_SOURCES.pools.find((pool) => pool.id === 'forge-cusd')).toEqual({
      id: 'forge-cusd',
      address: worldErc20Address('forge-cusd'),
      token0: 'forge',
      token1: 'cusd',
      base: 'forge',
      quote: 'cusd',
    });
    expect(WORLD_PRICE_SOURCES.feeds.map((feed) => `${feed.id}:${feed.token}`)).toEqual(['eth-usd:weth', 'cusd-usd:cusd', 'forge-usd:forge']);
  });
});

describe('the holdings the price layer leaves', () => {
  const holdings = worldHoldings();
  const deployer = holdings.get(WORLD_DEPLOYER)!;

  it('leaves the deployer enough of every token after the history to seed every pool', () => {
    for (const [token, amount] of Object.entries(deployer.erc20)) expect(amount, token).toBeGreaterThanOrEqual(0n);
    // The ether of the WETH seed is wrapped for it, and all of it goes to the pair.
    expect(deployer.erc20.weth).toBe(0n);
  });

  it('gives each pair its seeds and the deployer the liquidity tokens of the first mint', () => {
    for (const pool of WORLD_POOLS) {
      expect(holdings.get(pool.address)!.erc20).toEqual({ [pool.token0]: pool.seed0, [pool.token1]: pool.seed1 });
      expect(deployer.erc20[pool.id]).toBe(firstLiquidity(pool.seed0, pool.seed1));
    }
  });

  it('computes the first liquidity as UniswapV2Pair.mint: the square root rounded down, less 1000', () => {
    expect(firstLiquidity(10n ** 18n, 4n * 10n ** 18n)).toBe(2n * 10n ** 18n - 1000n);
    for (const pool of WORLD_POOLS) {
      const root = firstLiquidity(pool.seed0, pool.seed1) + 1000n;
      expect(root * root <= pool.seed0 * pool.seed1 && (root + 1n) * (root + 1n) > pool.seed0 * pool.seed1, pool.id).toBe(true);
    }
  });
});

describe('the feeds’ heartbeat', () => {
  const round = (id: 'eth-usd' | 'cusd-usd', updatedAt: number) => ({ id, answer: 1n, updatedAt: BigInt(updatedAt) });

  it('finds the feeds whose latest round is older than the heartbeat, and only those', () => {
    const now = 1_700_000_000;
    const rounds = [round('eth-usd', now - FEED_HEARTBEAT_SECONDS - 1), round('cusd-usd', now - FEED_HEARTBEAT_SECONDS)];
    expect(staleFeeds(rounds, BigInt(now)).map((stale) => stale.id)).toEqual(['eth-usd']);
    expect(staleFeeds(rounds, BigInt(now + 1)).map((stale) => stale.id)).toEqual(['eth-usd', 'cusd-usd']);
  });

  it('looks often enough that no feed gets much older than the heartbeat', () => {
    expect(FEED_CHECK_SECONDS).toBeLessThan(FEED_HEARTBEAT_SECONDS);
  });
});

describe('getAmountOut', () => {
  it('gives what UniswapV2Library gives: the most the pair lets go of for the amount in after its 0.3% fee', () => {
    const [reserveIn, reserveOut] = [parseUnits('100000', 18), parseUnits('250000', 6)];
    const amountIn = parseUnits('1000', 18);
    const out = getAmountOut(amountIn, reserveIn, reserveOut);
    expect(out).toBe(2_467_895_085n);
    // The pair's check: the balances after the swap, less the fee on what came in, keep the product of the reserves.
    const keeps = (taken: bigint) => (reserveIn * 1000n + amountIn * 997n) * (reserveOut - taken) >= reserveIn * reserveOut * 1000n;
    expect(keeps(out)).toBe(true);
    expect(keeps(out + 1n)).toBe(false);
  });

  it('buys nothing for nothing, or from an empty pool', () => {
    expect(getAmountOut(0n, 10n, 10n)).toBe(0n);
    expect(getAmountOut(10n, 0n, 10n)).toBe(0n);
  });
});

it('finds the contract of every ERC-20 a world address holds: the tokens, and the pairs as liquidity tokens', () => {
  const seen = new Set<Address>();
  for (const held of worldHoldings().values()) for (const id of Object.keys(held.erc20)) seen.add(worldErc20Address(id as 'forge'));
  expect([...seen].sort()).toEqual([...Object.values(WORLD_TOKEN_ADDRESSES), ...WORLD_POOLS.map((pool) => pool.address)].sort());
});
