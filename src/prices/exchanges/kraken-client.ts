import type { Observation } from '../observation.ts';
import { CANDLE_SECONDS, type CandleInterval, candleRange, pagedCandles } from './candle-range.ts';
import { type ExchangeHttp, type ExchangeResult, exchangeUrl } from './http.ts';
import { type KrakenPair, parseKrakenCandles, parseKrakenTicker } from './kraken.ts';

// Kraken's public endpoints over HTTP (docs/prices.md#sources). OHLC: `interval` in minutes (5, 60 and 1440 serve 5m,
// 1h and 1d) and `since` in unix seconds. Kraken answers only its 720 latest entries of an interval, the
// running one among them, whatever `since` asks, so one request is all it has: a year of days, 30 days of
// hours but the oldest, 2.5 days of 5-minute candles; older points are not there to ask for.

const KRAKEN_URL = 'https://api.kraken.com';

/** `GET {base}/0/public/Ticker?pair=`: the last trade, observed at `now` (ms) or when the answer came (the ticker has no time). */
export function krakenTicker(http: ExchangeHttp, pair: KrakenPair, now?: number, base = KRAKEN_URL): Promise<ExchangeResult<Observation>> {
  const url = exchangeUrl(base, '/0/public/Ticker', { pair: pair.pair });
  return http.get(url, (body, receivedAt) => parseKrakenTicker(body, pair, now ?? receivedAt));
}

/** `GET {base}/0/public/OHLC?pair=&interval=&since=`: the closes of the candles ending within [from, to] (ms) that Kraken still keeps, oldest first. */
export function krakenCandles(
  http: ExchangeHttp,
  pair: KrakenPair,
  interval: CandleInterval,
  from: number,
  to: number,
  base = KRAKEN_URL,
): Promise<ExchangeResult<Observation[]>> {
  const seconds = CANDLE_SECONDS[interval];
  return pagedCandles(candleRange(interval, from, to, http.now()), Number.POSITIVE_INFINITY, (first) => {
    // One second before the first start: the first candle is answered whether `since` is read as > or ≥.
    const url = exchangeUrl(base, '/0/public/OHLC', { pair: pair.pair, interval: seconds / 60, since: first - 1 });
    return http.get(url, (body, receivedAt) => parseKrakenCandles(body, pair, seconds, receivedAt));
  });
}
