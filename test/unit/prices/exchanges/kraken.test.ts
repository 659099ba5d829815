import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseKrakenCandles, parseKrakenTicker } from '../../../../src/prices/exchanges/kraken.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8');
const BTC = { symbol: 'BTC', pair: 'XBTUSD' };
const RECEIVED = Date.parse('2023-07-06T19:30:00Z');

describe('parseKrakenTicker', () => {
  it("reads the documentation's ticker (keyed XXBTZUSD for XBTUSD) as the last trade when it came, weighted by 24-hour volume × VWAP", () => {
    expect(parseKrakenTicker(fixture('kraken-ticker.json'), BTC, RECEIVED)).toEqual({
      ok: true,
      value: {
        source: { kind: 'exchange', id: 'kraken:XBTUSD' },
        symbol: 'BTC',
        currency: 'usd',
        value: '30303.2',
        observedAt: RECEIVED,
        volumeUsd: '135423038.3578862855795',
      },
    });
  });

  it("passes Kraken's errors on as exchange-error", () => {
    expect(parseKrakenTicker('{"error":["EQuery:Unknown asset pair"]}', BTC, RECEIVED)).toEqual({
      ok: false,
      error: { code: 'exchange-error', message: 'Kraken /0/public/Ticker?pair=XBTUSD refused: EQuery:Unknown asset pair' },
    });
  });

  it('calls anything else garbage', () => {
    const ticker = JSON.parse(fixture('kraken-ticker.json'));
    const entry = ticker.result.XXBTZUSD;
    const bodies = [
      'Service Unavailable',
      '{"result":{}}',
      JSON.stringify({ error: [], result: {} }),
      JSON.stringify({ error: [], result: { XXBTZUSD: entry, XETHZUSD: entry } }),
      JSON.stringify({ error: [], result: { XXBTZUSD: { ...entry, c: ['abc', '1'] } } }),
      JSON.stringify({ error: [], result: { XXBTZUSD: { ...entry, v: ['1'] } } }),
    ];
    for (const body of bodies) expect(parseKrakenTicker(body, BTC, RECEIVED), body).toMatchObject({ ok: false, error: { code: 'garbage' } });
    expect(parseKrakenTicker(JSON.stringify({ error: [], result: { XXBTZUSD: { ...entry, c: ['abc', '1'] } } }), BTC, RECEIVED)).toMatchObject({
      error: { message: 'Kraken /0/public/Ticker?pair=XBTUSD answered an unexpected shape: result.XXBTZUSD.c.0 must be a positive decimal number' },
    });
  });

  it('picks the requested pair out of several', () => {
    const entry = JSON.parse(fixture('kraken-ticker.json')).result.XXBTZUSD;
    const body = JSON.stringify({ error: [], result: { XBTUSD: entry, XETHZUSD: { ...entry, c: ['1900.5', '1'] } } });
    expect(parseKrakenTicker(body, BTC, RECEIVED)).toMatchObject({ ok: true, value: { value: '30303.2' } });
  });
});

describe('parseKrakenCandles', () => {
  const lastStart = 1688671380;

  it("reads the documentation's one-minute candles as closes at their ends, oldest first", () => {
    const candles = parseKrakenCandles(fixture('kraken-ohlc.json'), BTC, 60, (lastStart + 60) * 1000);
    if (!candles.ok) throw new Error(candles.error.message);
    expect(candles.value.map((o) => [o.value, o.observedAt / 1000, o.volumeUsd])).toEqual([
      ['30305.7', 1688671260, '102811.594365656'],
      ['30300', 1688671320, '134228.051913'],
      ['30291.4', 1688671380, '64535.220753183'],
      ['30295', 1688671440, '30850.07747595'],
    ]);
    expect(candles.value[0]!.source).toEqual({ kind: 'exchange', id: 'kraken:XBTUSD' });
  });

  it('leaves out the running candle Kraken appends', () => {
    const candles = parseKrakenCandles(fixture('kraken-ohlc.json'), BTC, 60, (lastStart + 59) * 1000);
    expect(candles.ok && candles.value.map((o) => o.value)).toEqual(['30305.7', '30300', '30291.4']);
  });

  it('calls rows of another shape garbage, and passes errors on', () => {
    const bad = JSON.stringify({
      error: [],
      result: { XXBTZUSD: [[1688671200, 30306.1, '30306.2', '30305.7', '30305.7', '30306.1', '3.39243896', 23]], last: 1 },
    });
    expect(parseKrakenCandles(bad, BTC, 60, RECEIVED)).toMatchObject({ ok: false, error: { code: 'garbage' } });
    expect(parseKrakenCandles('{"error":["EGeneral:Invalid arguments"]}', BTC, 60, RECEIVED)).toMatchObject({ ok: false, error: { code: 'exchange-error' } });
  });
});
