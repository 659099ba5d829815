import { describe, expect, it } from 'vitest';
import { parseDecimal } from '../../../../src/prices/decimal.ts';
import { inUsdt, usdtToUsd } from '../../../../src/prices/exchanges/usdt.ts';
import { makeObservation } from '../../../../src/prices/observation.ts';

const source = { kind: 'exchange' as const, id: 'binance:ETHUSDT' };

describe('tether observations', () => {
  it('say the same numbers in tether, and convert to dollars at a price of USDT', () => {
    const tether = inUsdt(makeObservation(source, 'ETH', parseDecimal('3000.5')!, 1000, { volumeUsd: parseDecimal('2000000')! }));
    expect(tether).toEqual({ source, symbol: 'ETH', currency: 'usdt', value: '3000.5', observedAt: 1000, volumeUsdt: '2000000' });
    expect(usdtToUsd(tether, parseDecimal('0.9995')!)).toEqual({
      source,
      symbol: 'ETH',
      currency: 'usd',
      value: '2998.99975',
      observedAt: 1000,
      volumeUsd: '1999000',
    });
    const unweighted = inUsdt(makeObservation(source, 'ETH', parseDecimal('1')!, 1000));
    expect(unweighted).not.toHaveProperty('volumeUsdt');
    expect(usdtToUsd(unweighted, parseDecimal('1.001')!)).toEqual({ source, symbol: 'ETH', currency: 'usd', value: '1.001', observedAt: 1000 });
  });
});
