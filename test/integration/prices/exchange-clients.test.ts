import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseBinanceTicker } from '../../../src/prices/exchanges/binance.ts';
import { parseCoinbaseTicker } from '../../../src/prices/exchanges/coinbase.ts';
import { createExchangeHttp } from '../../../src/prices/exchanges/http.ts';
import { parseKrakenTicker } from '../../../src/prices/exchanges/kraken.ts';
import { createExchangeSource } from '../../../src/prices/exchanges/source.ts';
import type { ExchangeListing } from '../../../src/token-list/price-sources.ts';
import { answerJson, type ExchangeServer, fixture, startExchangeServer } from './exchange-server.ts';

// The exchange clients against one local HTTP server that answers as Coinbase Exchange, Kraken and
// Binance do at their own paths: the tickers recorded from their API documentation, and candle series in
// the recorded row shapes, cut as each exchange cuts them (Coinbase: ≤ 300 a request, both ends included,
// one candle before `start`, newest first; Kraken: its latest 720 entries, the running one last, whatever
// `since`; Binance: ≤ `limit` klines by open time within [startTime, endTime], the running one included).

const NOW = Date.parse('2026-01-01T00:30:00Z');
const NOW_S = NOW / 1000;
const HOUR = 3600;
const DAY = 86_400;
const GRANULARITIES = [60, 300, 900, 3600, 21600, 86400];

/** The close of the candle starting at `start` (s) in the served series: quarters, exact in binary and in decimal. */
const closeAt = (start: number) => 2000 + ((start / 300) % 1000) / 4;

let server: ExchangeServer;
let now = NOW;

function coinbaseCandles(url: URL, response: ServerResponse) {
  const granularity = Number(url.searchParams.get('granularity'));
  const start = Date.parse(url.searchParams.get('start') ?? '') / 1000;
  const end = Date.parse(url.searchParams.get('end') ?? '') / 1000;
  if (!GRANULARITIES.includes(granularity)) return answerJson(response, 400, '{"message":"Unsupported granularity"}');
  if ((end - start) / granularity + 1 > 300) {
    return answerJson(response, 400, '{"message":"granularity too small for the requested time range. Count of aggregations requested exceeds 300"}');
  }
  const rows = [];
  for (let t = Math.ceil(start / granularity) * granularity - granularity; t <= end && t <= NOW_S; t += granularity) {
    rows.push([t, closeAt(t) - 1, closeAt(t) + 1, closeAt(t), closeAt(t), 1.5]);
  }
  answerJson(response, 200, JSON.stringify(rows.reverse()));
}

function krakenOhlc(url: URL, response: ServerResponse) {
  const seconds = Number(url.searchParams.get('interval')) * 60;
  const since = Number(url.searchParams.get('since') ?? 0);
  const running = Math.floor(NOW_S / seconds) * seconds;
  const rows = [];
  for (let t = running - 719 * seconds; t <= running; t += seconds) {
    const close = String(closeAt(t));
    if (t > since || t === running) rows.push([t, close, close, close, close, close, '2', 7]);
  }
  answerJson(response, 200, JSON.stringify({ error: [], result: { [url.searchParams.get('pair') ?? '']: rows, last: running - seconds } }));
}

function binanceKlines(url: URL, response: ServerResponse) {
  const seconds = { '5m': 300, '1h': HOUR, '1d': DAY }[url.searchParams.get('interval') ?? ''];
  const limit = Number(url.searchParams.get('limit') ?? 500);
  if (seconds === undefined) return answerJson(response, 400, '{"code":-1120,"msg":"Invalid interval."}');
  if (limit > 1000) return answerJson(response, 400, '{"code":-1130,"msg":"Data sent for parameter \'limit\' is not valid."}');
  const startTime = Number(url.searchParams.get('startTime'));
  const endTime = Number(url.searchParams.get('endTime'));
  const rows = [];
  for (let t = Math.ceil(startTime / 1000 / seconds) * seconds; t * 1000 <= endTime && t <= NOW_S && rows.length < limit; t += seconds) {
    const close = String(closeAt(t));
    rows.push([t * 1000, close, close, close, close, '2', (t + seconds) * 1000 - 1, '3000.5', 9, '1', '1500', '0']);
  }
  answerJson(response, 200, JSON.stringify(rows));
}

beforeAll(async () => {
  server = await startExchangeServer((url, response) => {
    switch (url.pathname) {
      case '/products/BTC-USD/ticker':
        return answerJson(response, 200, fixture('coinbase-ticker.json'));
      case '/products/ETH-USD/candles':
        return coinbaseCandles(url, response);
      case '/0/public/Ticker':
        return answerJson(response, 200, fixture('kraken-ticker.json'));
      case '/0/public/OHLC':
        return krakenOhlc(url, response);
      case '/api/v3/ticker/24hr':
        if (url.searchParams.get('symbol') === 'BNBUSDT') return answerJson(response, 200, fixture('binance-ticker-24hr.json'));
        return answerJson(response, 400, '{"code":-1121,"msg":"Invalid symbol."}');
      case '/api/v3/klines':
        return binanceKlines(url, response);
      default:
        return answerJson(response, 404, '{"message":"NotFound"}');
    }
  });
});

afterAll(() => server.close());

beforeEach(() => {
  now = NOW;
  server.seen.length = 0;
});

function source(listing: ExchangeListing, symbol = 'ETH') {
  const http = createExchangeHttp({ now: () => now, timeoutMs: 10_000, retryDelayMs: () => 1 });
  const origin = server.origin;
  return createExchangeSource(listing, symbol, { http, baseUrls: { coinbase: origin, kraken: origin, binance: origin } });
}

/** The requests seen, as path and query. */
const asked = () => server.seen.map(({ url }) => `${url.pathname}?${url.searchParams}`);

/** Candle ends of `seconds` from `first` to `last` (s), and the closes the series has for them. */
function expectedCloses(first: number, last: number, seconds: number) {
  const closes = [];
  for (let end = first; end <= last; end += seconds) closes.push([end, String(closeAt(end - seconds))]);
  return closes;
}

const closesOf = (observations: readonly { observedAt: number; value: string }[]) => observations.map((o) => [o.observedAt / 1000, o.value]);

describe('tickers', () => {
  // The numbers of each recorded answer are the parsers' unit tests' to state; here the client answers what the parser reads from it.
  it('Coinbase: the recorded ticker, asked at /products/{id}/ticker as JSON by Crucible', async () => {
    const answer = await source({ exchange: 'coinbase', product: 'BTC-USD' }, 'BTC').ticker();
    expect(answer).toEqual(parseCoinbaseTicker(fixture('coinbase-ticker.json'), { symbol: 'BTC', productId: 'BTC-USD' }));
    expect(answer).toMatchObject({ ok: true, value: { source: { id: 'coinbase:BTC-USD' }, value: '6268.48' } });
    expect(asked()).toEqual(['/products/BTC-USD/ticker?']);
    expect(server.seen[0]!.headers).toMatchObject({ accept: 'application/json', 'user-agent': 'Crucible-Prices/1' });
  });

  it('Kraken: the recorded ticker, observed when it came or at the time given', async () => {
    const kraken = source({ exchange: 'kraken', pair: 'XBTUSD' }, 'BTC');
    const recorded = (at: number) => parseKrakenTicker(fixture('kraken-ticker.json'), { symbol: 'BTC', pair: 'XBTUSD' }, at);
    expect(await kraken.ticker()).toEqual(recorded(NOW));
    expect(await kraken.ticker(NOW - 5000)).toEqual(recorded(NOW - 5000));
    expect(recorded(NOW)).toMatchObject({ ok: true, value: { source: { id: 'kraken:XBTUSD' }, value: '30303.2', observedAt: NOW } });
    expect(asked()).toEqual(['/0/public/Ticker?pair=XBTUSD', '/0/public/Ticker?pair=XBTUSD']);
  });

  it('Binance: the recorded ticker, in tether', async () => {
    const binance = source({ exchange: 'binance', symbol: 'BNBUSDT' }, 'BNB');
    expect(binance.quote).toBe('usdt');
    const answer = await binance.ticker();
    expect(answer).toEqual(parseBinanceTicker(fixture('binance-ticker-24hr.json'), { symbol: 'BNB', binanceSymbol: 'BNBUSDT' }));
    expect(answer).toMatchObject({ ok: true, value: { source: { id: 'binance:BNBUSDT' }, currency: 'usdt', value: '4.000002' } });
    expect(asked()).toEqual(['/api/v3/ticker/24hr?symbol=BNBUSDT']);
  });

  it("passes an exchange's refusal on with its words, and asks again next time", async () => {
    const coinbase = source({ exchange: 'coinbase', product: 'NOPE-USD' });
    const refused = { ok: false, error: { code: 'exchange-error', message: 'Coinbase /products/NOPE-USD/ticker refused: NotFound (HTTP 404)' } };
    expect(await coinbase.ticker()).toEqual(refused);
    expect(await coinbase.ticker()).toEqual(refused);
    expect(server.seen).toHaveLength(2);
    expect(await source({ exchange: 'binance', symbol: 'NOPEUSDT' }).ticker()).toEqual({
      ok: false,
      error: { code: 'exchange-error', message: 'Binance /api/v3/ticker/24hr?symbol=NOPEUSDT refused: -1121 Invalid symbol. (HTTP 400)' },
    });
  });
});

describe('candles', () => {
  it('Coinbase: a year of days in two requests of at most 300, no gap, no repeat, the running day left out', async () => {
    const answer = await source({ exchange: 'coinbase', product: 'ETH-USD' }).candles('1d', NOW - 365 * DAY * 1000, NOW);
    if (!answer.ok) throw new Error(answer.error.message);
    const lastEnd = Math.floor(NOW_S / DAY) * DAY;
    expect(closesOf(answer.value)).toEqual(expectedCloses(lastEnd - 364 * DAY, lastEnd, DAY));
    const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
    const firstStart = lastEnd - 365 * DAY;
    expect(server.seen.map(({ url }) => Object.fromEntries(url.searchParams))).toEqual([
      { granularity: '86400', start: iso(firstStart), end: iso(firstStart + 299 * DAY) },
      { granularity: '86400', start: iso(firstStart + 300 * DAY), end: iso(lastEnd - DAY) },
    ]);
    expect(answer.value[0]).toEqual({
      source: { kind: 'exchange', id: 'coinbase:ETH-USD' },
      symbol: 'ETH',
      currency: 'usd',
      value: String(closeAt(firstStart)),
      observedAt: (firstStart + DAY) * 1000,
      volumeUsd: String(1.5 * closeAt(firstStart)),
    });
  });

  it('Coinbase: 30 days of hours in three requests', async () => {
    const answer = await source({ exchange: 'coinbase', product: 'ETH-USD' }).candles('1h', NOW - 30 * DAY * 1000, NOW);
    const lastEnd = Math.floor(NOW_S / HOUR) * HOUR;
    expect(answer.ok && closesOf(answer.value)).toEqual(expectedCloses(lastEnd - 719 * HOUR, lastEnd, HOUR));
    expect(server.seen).toHaveLength(3);
  });

  it('Kraken: one request, everything it keeps: a year of days, 30 days of hours but the oldest', async () => {
    const kraken = source({ exchange: 'kraken', pair: 'XETHZUSD' });
    const days = await kraken.candles('1d', NOW - 365 * DAY * 1000, NOW);
    const lastDay = Math.floor(NOW_S / DAY) * DAY;
    expect(days.ok && closesOf(days.value)).toEqual(expectedCloses(lastDay - 364 * DAY, lastDay, DAY));
    expect(asked()).toEqual([`/0/public/OHLC?pair=XETHZUSD&interval=1440&since=${lastDay - 365 * DAY - 1}`]);

    const hours = await kraken.candles('1h', NOW - 30 * DAY * 1000, NOW);
    const lastHour = Math.floor(NOW_S / HOUR) * HOUR;
    // 720 entries with the running hour among them: 719 ended ones.
    expect(hours.ok && closesOf(hours.value)).toEqual(expectedCloses(lastHour - 718 * HOUR, lastHour, HOUR));
    expect(hours.ok && hours.value[0]).toMatchObject({
      source: { id: 'kraken:XETHZUSD' },
      currency: 'usd',
      volumeUsd: String(2 * closeAt(lastHour - 719 * HOUR)),
    });
    expect(server.seen).toHaveLength(2);
  });

  it('Binance: a week of 5-minute klines in pages of 1000, in tether, no gap, no repeat', async () => {
    const answer = await source({ exchange: 'binance', symbol: 'ETHUSDT' }).candles('5m', NOW - 7 * DAY * 1000, NOW);
    if (!answer.ok) throw new Error(answer.error.message);
    const lastEnd = Math.floor(NOW_S / 300) * 300;
    // From a boundary to a boundary, both ends included: 2017 points.
    expect(closesOf(answer.value)).toEqual(expectedCloses(lastEnd - 2016 * 300, lastEnd, 300));
    expect(new Set(answer.value.map((o) => o.currency))).toEqual(new Set(['usdt']));
    expect(answer.value[0]).toMatchObject({ source: { id: 'binance:ETHUSDT' }, volumeUsdt: '3000.5' });
    const pages = server.seen.map(({ url }) => [Number(url.searchParams.get('startTime')), Number(url.searchParams.get('endTime'))]);
    const firstStart = (lastEnd - 2017 * 300) * 1000;
    expect(pages).toEqual([
      [firstStart, firstStart + 1000 * 300_000 - 1],
      [firstStart + 1000 * 300_000, firstStart + 2000 * 300_000 - 1],
      [firstStart + 2000 * 300_000, firstStart + 2017 * 300_000 - 1],
    ]);
    expect(server.seen.every(({ url }) => url.searchParams.get('symbol') === 'ETHUSDT' && url.searchParams.get('limit') === '1000')).toBe(true);
  });

  it('asks nothing for a range with no ended candle', async () => {
    const answer = await source({ exchange: 'coinbase', product: 'ETH-USD' }).candles('1d', NOW, NOW + DAY * 1000);
    expect(answer).toEqual({ ok: true, value: [] });
    expect(server.seen).toHaveLength(0);
  });
});
