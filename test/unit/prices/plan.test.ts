import type { Address } from 'viem';
import { describe, expect, it } from 'vitest';
import { planPrices, PricePlanError, type PricedEntry, type WorldPriceContracts } from '../../../src/prices/plan.ts';

const a = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as Address;
const world: WorldPriceContracts = {
  tokens: { forge: a(1), cusd: a(2), slag: a(3), weth: a(4) },
  pools: [
    { id: 'forge-cusd', address: a(10), token0: 'forge', token1: 'cusd' },
    { id: 'slag-forge', address: a(11), token0: 'forge', token1: 'slag' },
    { id: 'weth-cusd', address: a(12), token0: 'cusd', token1: 'weth' },
  ],
  feeds: [{ id: 'cusd-usd', address: a(20) }],
};
const entry = (symbol: string, extra: Partial<PricedEntry>): PricedEntry => ({ symbol, decimals: 18, addresses: {}, sourcePath: `${symbol}.yaml`, ...extra });
const none = { uniswapV2: [], feeds: [], exchanges: [] };
const options = { worldNetwork: 'ethereum-sepolia', world, exchanges: new Set(['coinbase'] as const) };

describe('planPrices', () => {
  const entries = [
    entry('SLAG', { world: 'slag', prices: { ...none, world: { pools: ['slag-forge'], feeds: [] } } }),
    entry('FORGE', { world: 'forge', prices: { ...none, world: { pools: ['forge-cusd'], feeds: [] } } }),
    entry('cUSD', { world: 'cusd', decimals: 6, prices: { ...none, world: { pools: [], feeds: ['cusd-usd'] } } }),
    entry('WETH', { world: 'weth' }),
    entry('ETH', {
      prices: {
        ...none,
        world: { pools: [{ pool: 'weth-cusd', token: 'weth' }], feeds: [] },
        exchanges: [
          { exchange: 'coinbase', product: 'ETH-USD' },
          { exchange: 'kraken', pair: 'XETHZUSD' },
        ],
      },
    }),
  ];

  it('orders tokens after the quote tokens of their pools, and reads pairs in their token order with each side’s decimals', () => {
    const plan = planPrices(entries, options);
    const order = plan.symbols;
    expect(order.indexOf('cUSD')).toBeLessThan(order.indexOf('FORGE'));
    expect(order.indexOf('FORGE')).toBeLessThan(order.indexOf('SLAG'));
    expect(order.indexOf('cUSD')).toBeLessThan(order.indexOf('ETH'));
    const sources = plan.chain.get('ethereum-sepolia')!;
    expect(sources.find((source) => source.symbol === 'FORGE')).toMatchObject({
      kind: 'amm-v2',
      pricedIsToken0: true,
      decimals: { decimals0: 18, decimals1: 6 },
      quoteSymbol: 'cUSD',
    });
    expect(sources.find((source) => source.symbol === 'SLAG')).toMatchObject({ pricedIsToken0: false, quoteSymbol: 'FORGE' });
    expect(sources.find((source) => source.symbol === 'ETH')).toMatchObject({ pricedIsToken0: false, decimals: { decimals0: 6, decimals1: 18 } });
    // Only enabled exchanges are asked.
    expect(plan.exchanges.map((source) => source.id)).toEqual(['coinbase:ETH-USD']);
  });

  it('finds symbols in any case, and world addresses only on local devnets', () => {
    const plan = planPrices(entries, options);
    expect(plan.symbolOf('eth')).toBe('ETH');
    expect(plan.symbolOf('CUSD')).toBe('cUSD');
    expect(plan.symbolOf('WETH')).toBeNull(); // listed, but priced by nothing
    expect(plan.symbolAt('crucible-testnet', a(1).toUpperCase().replace('0X', '0x'), { localWorld: true })).toBe('FORGE');
    expect(plan.symbolAt('ethereum-mainnet', a(1), { localWorld: false })).toBeNull();
  });

  it('reads no world source where no devnet carries the world', () => {
    const plan = planPrices(entries, { ...options, worldNetwork: null });
    expect(plan.chain.size).toBe(0);
  });

  it('refuses unknown pools and feeds, a token not in its pool and quotes in a circle, naming each file', () => {
    const bad = [
      entry('FORGE', { world: 'forge', prices: { ...none, world: { pools: ['nope', 'weth-cusd'], feeds: ['gone'] } } }),
      entry('SLAG', { world: 'slag', prices: { ...none, world: { pools: ['slag-forge'], feeds: [] } } }),
      entry('cUSD', { world: 'cusd', prices: { ...none, world: { pools: ['weth-cusd'], feeds: [] } } }),
      entry('WETH', { world: 'weth', prices: { ...none, world: { pools: ['weth-cusd'], feeds: [] } } }),
    ];
    const thrown = (() => {
      try {
        planPrices(bad, options);
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBeInstanceOf(PricePlanError);
    const problems = (thrown as PricePlanError).problems;
    expect(problems).toContain('FORGE.yaml: prices: the local world has no pool nope');
    expect(problems).toContain('FORGE.yaml: prices: pool weth-cusd holds cusd and weth, not forge');
    expect(problems).toContain('FORGE.yaml: prices: the local world has no feed gone');
    expect(problems.filter((problem) => problem.includes('quote each other in a circle'))).toHaveLength(1);
  });
});
