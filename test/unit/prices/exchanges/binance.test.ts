import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseBinanceKlines, parseBinanceTicker } from '../../../../src/prices/exchanges/binance.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8');
// The documentation's examples are of BNBBTC; read here as the answers of a USDT market.
const BNB = { symbol: 'BNB', binanceSymbol: 'BNBUSDT' };
const WEEK = 7 * 86_400;
const KLINE_END = 1499040000000 + WEEK * 1000;

describe('parseBinanceTicker', () => {
  it("reads the documentation's 24-hour ticker as the last price in tether at closeTime, weighted by the quote volume", () => {
    expect(parseBinanceTicker(fixture('binance-ticker-24hr.json'), BNB)).toEqual({
      ok: true,
      value: {
        source: { kind: 'exchange', id: 'binance:BNBUSDT' },
        symbol: 'BNB',
        currency: 'usdt',
        value: '4.000002',
        observedAt: 1499869899040,
        volumeUsdt: '15.3',
      },
    });
  });

  it("passes Binance's refusal on as exchange-error, and calls other shapes garbage", () => {
    expect(parseBinanceTicker('{"code":-1121,"msg":"Invalid symbol."}', BNB)).toEqual({
      ok: false,
      error: { code: 'exchange-error', message: 'Binance /api/v3/ticker/24hr?symbol=BNBUSDT refused: -1121 Invalid symbol.' },
    });
    const ticker = JSON.parse(fixture('binance-ticker-24hr.json'));
    for (const body of ['<html></html>', '[]', JSON.stringify({ ...ticker, lastPrice: '0' }), JSON.stringify({ ...ticker, closeTime: '1499869899040' })]) {
      expect(parseBinanceTicker(body, BNB), body).toMatchObject({ ok: false, error: { code: 'garbage' } });
    }
  });
});

describe('parseBinanceKlines', () => {
  it("reads the documentation's one-week kline as its close in tether at its end, weighted by the quote volume", () => {
    expect(parseBinanceKlines(fixture('binance-klines.json'), BNB, WEEK, KLINE_END)).toEqual({
      ok: true,
      value: [
        {
          source: { kind: 'exchange', id: 'binance:BNBUSDT' },
          symbol: 'BNB',
          currency: 'usdt',
          value: '0.015771',
          observedAt: KLINE_END,
          volumeUsdt: '2434.19055334',
        },
      ],
    });
  });

  it('leaves out the running kline', () => {
    expect(parseBinanceKlines(fixture('binance-klines.json'), BNB, WEEK, KLINE_END - 1)).toEqual({ ok: true, value: [] });
  });

  it('calls a kline of another interval, or of another shape, garbage', () => {
    expect(parseBinanceKlines(fixture('binance-klines.json'), BNB, 86_400, KLINE_END)).toEqual({
      ok: false,
      error: { code: 'garbage', message: 'Binance /api/v3/klines?symbol=BNBUSDT answered a kline from 1499040000000 to 1499644799999, not of 86400 s' },
    });
    const [row] = JSON.parse(fixture('binance-klines.json'));
    const bodies = [{}, [row.slice(0, 7)], [[1499040000500, ...row.slice(1)]], [row.map((field: unknown, i: number) => (i === 4 ? 0.015771 : field))]];
    for (const body of bodies)
      expect(parseBinanceKlines(JSON.stringify(body), BNB, WEEK, KLINE_END), JSON.stringify(body)).toMatchObject({ ok: false, error: { code: 'garbage' } });
    expect(parseBinanceKlines('{"code":-1120,"msg":"Invalid interval."}', BNB, WEEK, KLINE_END)).toMatchObject({
      ok: false,
      error: { code: 'exchange-error' },
    });
  });
});
