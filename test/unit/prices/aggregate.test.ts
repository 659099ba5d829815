import { describe, expect, it } from 'vitest';
import { type AggregateOptions, aggregatePrice } from '../../../src/prices/aggregate.ts';
import type { Observation, SourceKind } from '../../../src/prices/observation.ts';

const NOW = Date.parse('2025-01-01T00:00:00Z');
const options: AggregateOptions = {
  now: NOW,
  maxAgeMs: { 'amm-v2': 60_000, 'amm-v3': 60_000, oracle: 3_600_000, exchange: 120_000 },
  madThreshold: 3,
};

const quote = (id: string, value: string, extra: Partial<Observation> & { kind?: SourceKind } = {}): Observation => {
  const { kind = 'exchange', ...rest } = extra;
  return { source: { kind, id }, symbol: 'ETH', currency: 'usd', value, observedAt: NOW - 1_000, ...rest };
};

function price(observations: Observation[], overrides: Partial<AggregateOptions> = {}) {
  const result = aggregatePrice(observations, { ...options, ...overrides });
  if (!result.ok) throw new Error(`expected a price, got ${result.error.message}`);
  return result.value;
}

describe('aggregatePrice', () => {
  it('is the median of agreeing sources, with the newest time used', () => {
    const result = price([quote('a', '3001', { observedAt: NOW - 5_000 }), quote('b', '2999', { observedAt: NOW - 2_000 }), quote('c', '3000')]);
    expect(result.value).toBe('3000');
    expect(result.observedAt).toBe(NOW - 1_000);
    expect(result.used.map((o) => o.source.id)).toEqual(['a', 'b', 'c']);
    expect(result.dropped).toEqual([]);
  });

  it('takes the mean of the two middle values of an even count, exactly', () => {
    expect(price([quote('a', '3000'), quote('b', '3001')]).value).toBe('3000.5');
    expect(price([quote('a', '0.1'), quote('b', '0.2')]).value).toBe('0.15');
    expect(price([quote('a', '0.000000000000000001'), quote('b', '0.000000000000000002')]).value).toBe('0.000000000000000002');
  });

  it('weights by liquidity or volume when every remaining source reports one', () => {
    const deepPool = quote('pool', '2990', { kind: 'amm-v2', liquidityUsd: '1000000' });
    const exchanges = [quote('x', '3000', { volumeUsd: '100' }), quote('y', '3010', { volumeUsd: '100' })];
    expect(price([deepPool, ...exchanges]).value).toBe('2990');
    // Equal weights split at exactly half: the mean of the values either side.
    expect(price([quote('a', '3000', { volumeUsd: '5' }), quote('b', '3001', { liquidityUsd: '5' })]).value).toBe('3000.5');
  });

  it('ignores weights when only some sources report one (a missing weight is not zero)', () => {
    const deepPool = quote('pool', '2990', { kind: 'amm-v2', liquidityUsd: '1000000' });
    expect(price([deepPool, quote('x', '3000', { volumeUsd: '100' }), quote('y', '3010')]).value).toBe('3000');
    // A weight of 0 or one that is not a number counts as not reported.
    expect(price([deepPool, quote('x', '3000', { volumeUsd: '0' }), quote('y', '3010', { volumeUsd: 'lots' })]).value).toBe('3000');
  });

  it('drops a wildly wrong source as an outlier', () => {
    const result = price([quote('a', '3000'), quote('b', '3001'), quote('c', '2999'), quote('broken', '30000')]);
    expect(result.value).toBe('3000');
    expect(result.dropped).toEqual([{ source: { kind: 'exchange', id: 'broken' }, reason: 'outlier' }]);
    expect(result.used.map((o) => o.source.id)).toEqual(['a', 'b', 'c']);
  });

  it('keeps a heavy outlier out of the weighted median', () => {
    const result = price([quote('a', '3000', { volumeUsd: '10' }), quote('b', '3002', { volumeUsd: '10' }), quote('c', '1', { liquidityUsd: '1000000000' })]);
    expect(result.value).toBe('3001');
    expect(result.dropped.map((d) => d.source.id)).toEqual(['c']);
  });

  it('with MAD 0 uses the relative floor, and without one drops any other value', () => {
    const agreeing = [quote('a', '3000'), quote('b', '3000'), quote('c', '3000')];
    // MAD = 0; the floor 0.001 · 3000 · k = 9 keeps a quote 0.5 away and drops one 100 away.
    expect(price([...agreeing, quote('d', '3000.5')]).dropped).toEqual([]);
    expect(price([...agreeing, quote('d', '3100')]).dropped.map((d) => d.reason)).toEqual(['outlier']);
    expect(price([...agreeing, quote('d', '3000.5')], { relativeFloor: 0 }).dropped.map((d) => d.source.id)).toEqual(['d']);
    expect(price(agreeing, { relativeFloor: 0 }).value).toBe('3000');
  });

  it('uses only fresh observations, each kind with its own limit', () => {
    const result = price([
      quote('feed', '3000', { kind: 'oracle', observedAt: NOW - 3_000_000 }),
      quote('pool', '2500', { kind: 'amm-v2', observedAt: NOW - 61_000 }),
      quote('exchange', '3002', { observedAt: NOW + 500 }),
    ]);
    expect(result.value).toBe('3001');
    expect(result.dropped).toEqual([{ source: { kind: 'amm-v2', id: 'pool' }, reason: 'stale' }]);
    expect(result.observedAt).toBe(NOW + 500);
    // Exactly at the limit is still fresh.
    expect(price([quote('pool', '2500', { kind: 'amm-v2', observedAt: NOW - 60_000 })]).value).toBe('2500');
  });

  it('fails with no-fresh-source when every source is stale, never answering a stale value', () => {
    const result = aggregatePrice([quote('feed', '3000', { kind: 'oracle', observedAt: NOW - 3_600_001 }), quote('x', '3001', { observedAt: 0 })], options);
    expect(result).toEqual({ ok: false, error: { code: 'no-fresh-source', message: 'no fresh price: feed stale, x stale' } });
    expect(aggregatePrice([], options)).toEqual({ ok: false, error: { code: 'no-fresh-source', message: 'no source has observed this token' } });
  });

  it('drops values that are not positive decimals as invalid', () => {
    const result = price([
      quote('a', 'abc'),
      quote('b', '0'),
      quote('c', '-5'),
      quote('d', '1e3'),
      quote('e', '3000'),
      quote('f', '3000', { observedAt: Number.NaN }),
    ]);
    expect(result.value).toBe('2000');
    expect(result.dropped.map((d) => `${d.source.id} ${d.reason}`)).toEqual(['a invalid', 'b invalid', 'c invalid', 'f invalid']);
    expect(aggregatePrice([quote('a', '')], options)).toMatchObject({ ok: false, error: { code: 'no-fresh-source' } });
  });

  it('refuses options out of range', () => {
    expect(() => aggregatePrice([quote('a', '1')], { ...options, madThreshold: 0.5 })).toThrow(RangeError);
    expect(() => aggregatePrice([quote('a', '1')], { ...options, madThreshold: Number.NaN })).toThrow(RangeError);
    expect(() => aggregatePrice([quote('a', '1')], { ...options, relativeFloor: -1 })).toThrow(RangeError);
  });
});
