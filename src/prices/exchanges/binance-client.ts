import { type BinanceSymbol, parseBinanceKlines, parseBinanceTicker } from './binance.ts';
import { CANDLE_SECONDS, type CandleInterval, candleRange, pagedCandles } from './candle-range.ts';
import { type ExchangeHttp, type ExchangeResult, exchangeUrl } from './http.ts';
import type { UsdtObservation } from './usdt.ts';

// Binance's public endpoints over HTTP (docs/prices.md#sources). Klines: `interval` as `5m`, `1h`, `1d`; `startTime`
// and `endTime` in ms, both ends included; at most 1000 a request (`limit`).

/** Binance's host for public market data only, as its API documentation advises for them. */
const BINANCE_URL = 'https://data-api.binance.vision';

/** Klines Binance answers in one request at most. */
const BINANCE_MAX_KLINES = 1000;

/** `GET {base}/api/v3/ticker/24hr?symbol=`: the last price, in tether. */
export function binanceTicker(http: ExchangeHttp, market: BinanceSymbol, base = BINANCE_URL): Promise<ExchangeResult<UsdtObservation>> {
  return http.get(exchangeUrl(base, '/api/v3/ticker/24hr', { symbol: market.binanceSymbol }), (body) => parseBinanceTicker(body, market));
}

/** `GET {base}/api/v3/klines`, page by page: the closes of the klines ending within [from, to] (ms), in tether, oldest first. */
export function binanceCandles(
  http: ExchangeHttp,
  market: BinanceSymbol,
  interval: CandleInterval,
  from: number,
  to: number,
  base = BINANCE_URL,
): Promise<ExchangeResult<UsdtObservation[]>> {
  const seconds = CANDLE_SECONDS[interval];
  return pagedCandles(candleRange(interval, from, to, http.now()), BINANCE_MAX_KLINES, (first, last) => {
    // endTime is the last kline's close time: it is in the page whether Binance compares it with open or close times.
    const query = { symbol: market.binanceSymbol, interval, startTime: first * 1000, endTime: (last + seconds) * 1000 - 1, limit: BINANCE_MAX_KLINES };
    return http.get(exchangeUrl(base, '/api/v3/klines', query), (body, receivedAt) => parseBinanceKlines(body, market, seconds, receivedAt));
  });
}
