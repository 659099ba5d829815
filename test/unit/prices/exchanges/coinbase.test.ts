import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCoinbaseCandles, parseCoinbaseTicker } from '../../../../src/prices/exchanges/coinbase.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8');
const BTC = { symbol: 'BTC', productId: 'BTC-USD' };

describe('parseCoinbaseTicker', () => {
  it("reads the documentation's ticker as an observation at the exchange's time, weighted by volume × price", () => {
    expect(parseCoinbaseTicker(fixture('coinbase-ticker.json'), BTC)).toEqual({
      ok: true,
      value: {
        source: { kind: 'exchange', id: 'coinbase:BTC-USD' },
        symbol: 'BTC',
        currency: 'usd',
        value: '6268.48',
        observedAt: Date.parse('2020-03-20T00:22:57.833Z'),
        volumeUsd: '336003311.9477654592',
      },
    });
  });

  it("passes Coinbase's refusal on as exchange-error", () => {
    expect(parseCoinbaseTicker('{"message":"NotFound"}', BTC)).toEqual({
      ok: false,
      error: { code: 'exchange-error', message: 'Coinbase /products/BTC-USD/ticker refused: NotFound' },
    });
  });

  it('calls anything else garbage, naming what does not fit', () => {
    expect(parseCoinbaseTicker('<html>Bad gateway</html>', BTC)).toMatchObject({ ok: false, error: { code: 'garbage' } });
    const ticker = JSON.parse(fixture('coinbase-ticker.json'));
    const broken = parseCoinbaseTicker(JSON.stringify({ ...ticker, price: '-1' }), BTC);
    expect(broken).toEqual({
      ok: false,
      error: { code: 'garbage', message: 'Coinbase /products/BTC-USD/ticker answered an unexpected shape: price must be a positive decimal number' },
    });
    expect(parseCoinbaseTicker(JSON.stringify({ ...ticker, price: 6268.48 }), BTC)).toMatchObject({ ok: false, error: { code: 'garbage' } });
    expect(parseCoinbaseTicker(JSON.stringify({ ...ticker, time: 'yesterday' }), BTC)).toMatchObject({ ok: false, error: { code: 'garbage' } });
    expect(parseCoinbaseTicker('null', BTC)).toMatchObject({ ok: false, error: { code: 'garbage' } });
  });
});

describe('parseCoinbaseCandles', () => {
  // The documented row: [1415398768, low 0.32, high 4.2, open 0.35, close 4.2, volume 12.3].
  const end = (1415398768 + 60) * 1000;

  it('reads an ended candle as its close at its end, weighted by volume × close', () => {
    expect(parseCoinbaseCandles(fixture('coinbase-candles.json'), BTC, 60, end)).toEqual({
      ok: true,
      value: [{ source: { kind: 'exchange', id: 'coinbase:BTC-USD' }, symbol: 'BTC', currency: 'usd', value: '4.2', observedAt: end, volumeUsd: '51.66' }],
    });
  });

  it('leaves out a candle still running, and orders the rest oldest first', () => {
    expect(parseCoinbaseCandles(fixture('coinbase-candles.json'), BTC, 60, end - 1)).toEqual({ ok: true, value: [] });
    const rows = JSON.stringify([
      [1415398888, 4, 5, 4, 4.5, 1],
      [1415398828, 3, 4, 3, 3.5, 0],
      [1415398768, 0.32, 4.2, 0.35, 4.2, 12.3],
    ]);
    const candles = parseCoinbaseCandles(rows, BTC, 60, (1415398828 + 60) * 1000);
    expect(candles.ok && candles.value.map((o) => [o.value, o.observedAt / 1000])).toEqual([
      ['4.2', 1415398828],
      ['3.5', 1415398888],
    ]);
  });

  it('calls rows of another shape garbage', () => {
    for (const body of ['{}', '[[1415398768, 0.32, 4.2]]', '[[1415398768, "0.32", 4.2, 0.35, 4.2, 12.3]]', '[[1415398768, 0.32, 4.2, 0.35, 0, 12.3]]']) {
      expect(parseCoinbaseCandles(body, BTC, 60, end), body).toMatchObject({ ok: false, error: { code: 'garbage' } });
    }
    expect(parseCoinbaseCandles('{"message":"granularity too small"}', BTC, 60, end)).toMatchObject({ ok: false, error: { code: 'exchange-error' } });
  });
});
