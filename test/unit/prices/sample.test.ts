import type { Address } from 'viem';
import { describe, expect, it } from 'vitest';
import type { ChainReadCode, ChainReading } from '../../../src/prices/chain-reader.ts';
import { parseDecimal } from '../../../src/prices/decimal.ts';
import type { Observation } from '../../../src/prices/observation.ts';
import { planPrices, type PricedEntry } from '../../../src/prices/plan.ts';
import { fail, ok, type Result } from '../../../src/prices/result.ts';
import { samplePrices } from '../../../src/prices/sample.ts';

const a = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as Address;
const none = { uniswapV2: [], feeds: [], exchanges: [] };
const entries: PricedEntry[] = [
  {
    symbol: 'FORGE',
    decimals: 18,
    world: 'forge',
    addresses: {},
    sourcePath: 'f',
    prices: { ...none, world: { pools: ['forge-cusd'], feeds: ['forge-usd'] }, exchanges: [{ exchange: 'coinbase', product: 'FORGE-USD' }] },
  },
  { symbol: 'cUSD', decimals: 6, world: 'cusd', addresses: {}, sourcePath: 'c', prices: { ...none, world: { pools: [], feeds: ['cusd-usd'] } } },
];
const plan = planPrices(entries, {
  worldNetwork: 'devnet',
  world: {
    tokens: { forge: a(1), cusd: a(2) },
    pools: [{ id: 'forge-cusd', address: a(10), token0: 'forge', token1: 'cusd' }],
    feeds: [
      { id: 'forge-usd', address: a(20) },
      { id: 'cusd-usd', address: a(21) },
    ],
  },
  exchanges: new Set(['coinbase'] as const),
});
const pool = `uniswap-v2:devnet:${a(10)}`;
const forgeFeed = `oracle:devnet:${a(20)}`;
const cusdFeed = `oracle:devnet:${a(21)}`;
const NOW = 1_800_000_000_000;
const aggregate = { now: NOW, maxAgeMs: { 'amm-v2': 600_000, 'amm-v3': 600_000, oracle: 90_000_000, exchange: 600_000 }, madThreshold: 3 };
const reading = (value: string, extra: Partial<ChainReading> = {}): Result<ChainReading, ChainReadCode> =>
  ok({ value: parseDecimal(value)!, observedAt: NOW - 1_000, ...extra });
const exchange = (value: string): Observation => ({
  source: { kind: 'exchange', id: 'coinbase:FORGE-USD' },
  symbol: 'FORGE',
  currency: 'usd',
  value,
  observedAt: NOW - 2_000,
});

const sample = (readings: Record<string, Result<ChainReading, ChainReadCode>>, ticker: Result<Observation, string> = ok(exchange('2.5'))) =>
  samplePrices({ plan, chain: new Map([['devnet', ok(new Map(Object.entries(readings)))]]), exchanges: new Map([['coinbase:FORGE-USD', ticker]]), aggregate });

describe('samplePrices', () => {
  it("turns a pool's quote into dollars with its quote token's aggregate of the same round, and says how", () => {
    const result = sample({ [pool]: reading('2.5', { liquidity: parseDecimal('500000')! }), [forgeFeed]: reading('2.5'), [cusdFeed]: reading('0.99') });
    const fromPool = result.observations.find((observation) => observation.source.id === pool)!;
    expect(fromPool.value).toBe('2.475');
    expect(fromPool.liquidityUsd).toBe('495000');
    expect(fromPool.conversion).toEqual({ quoteSymbol: 'cUSD', inQuote: '2.5', quoteUsd: '0.99' });
    const forge = result.prices.get('FORGE')!;
    expect(forge.ok && forge.value.value).toBe('2.5'); // the median of 2.475, 2.5, 2.5
  });

  it('drops a source that is wildly off as an outlier', () => {
    const result = sample({ [pool]: reading('2.5'), [forgeFeed]: reading('2.51'), [cusdFeed]: reading('1') }, ok(exchange('250')));
    const forge = result.prices.get('FORGE')!;
    expect(forge.ok).toBe(true);
    if (!forge.ok) return;
    expect(forge.value.dropped).toEqual([{ source: { kind: 'exchange', id: 'coinbase:FORGE-USD' }, reason: 'outlier' }]);
    expect(forge.value.value).toBe('2.505');
  });

  it('leaves out a pool whose quote token has no price, and one source that failed, with the reasons', () => {
    const result = sample(
      { [pool]: reading('2.5'), [forgeFeed]: fail('call-failed', 'the call reverted'), [cusdFeed]: fail('not-updated', 'round 0 has never been updated') },
      fail('timeout', 'no answer in 10 s'),
    );
    expect(result.prices.get('cUSD')).toMatchObject({ ok: false, error: { code: 'no-fresh-source' } });
    const forge = result.prices.get('FORGE')!;
    expect(forge.ok).toBe(false);
    if (forge.ok) return;
    expect(forge.error.message).toContain(`${pool}: its quote token cUSD has no price this round`);
    expect(forge.error.message).toContain(`${forgeFeed}: the call reverted`);
    expect(forge.error.message).toContain('coinbase:FORGE-USD: no answer in 10 s');
  });

  it('answers no price when every source is stale, never a stale value', () => {
    const old = NOW - 86_400_000 * 2;
    const result = sample(
      { [pool]: reading('2.5', { observedAt: old }), [forgeFeed]: reading('2.5', { observedAt: old }), [cusdFeed]: reading('1') },
      ok({ ...exchange('2.5'), observedAt: old }),
    );
    const forge = result.prices.get('FORGE')!;
    expect(forge).toMatchObject({ ok: false, error: { code: 'no-fresh-source' } });
    expect(!forge.ok && forge.error.message).toContain(`${pool} stale`);
  });
});
