import type { Observation } from '../observation.ts';
import { CANDLE_SECONDS, type CandleInterval, candleRange, pagedCandles } from './candle-range.ts';
import { type CoinbaseProduct, parseCoinbaseCandles, parseCoinbaseTicker } from './coinbase.ts';
import { type ExchangeHttp, type ExchangeResult, exchangeUrl } from './http.ts';

// Coinbase Exchange's public endpoints over HTTP (docs/prices.md#sources). Candles: `granularity` in seconds (300,
// 3600 and 86400 serve 5m, 1h and 1d), `start` and `end` as ISO 8601, both ends included, at most 300
// candles a request (more is refused), so a year of days is two requests.

const COINBASE_EXCHANGE_URL = 'https://api.exchange.coinbase.com';

/** Candles Coinbase answers in one request at most. */
const COINBASE_MAX_CANDLES = 300;

const productPath = (product: CoinbaseProduct) => `/products/${encodeURIComponent(product.productId)}`;

/** `GET {base}/products/{id}/ticker`: the last trade. */
export function coinbaseTicker(http: ExchangeHttp, product: CoinbaseProduct, base = COINBASE_EXCHANGE_URL): Promise<ExchangeResult<Observation>> {
  return http.get(exchangeUrl(base, `${productPath(product)}/ticker`), (body) => parseCoinbaseTicker(body, product));
}

/** `GET {base}/products/{id}/candles`, page by page: the closes of the candles ending within [from, to] (ms), oldest first. */
export function coinbaseCandles(
  http: ExchangeHttp,
  product: CoinbaseProduct,
  interval: CandleInterval,
  from: number,
  to: number,
  base = COINBASE_EXCHANGE_URL,
): Promise<ExchangeResult<Observation[]>> {
  const granularity = CANDLE_SECONDS[interval];
  return pagedCandles(candleRange(interval, from, to, http.now()), COINBASE_MAX_CANDLES, (first, last) => {
    const url = exchangeUrl(base, `${productPath(product)}/candles`, { granularity, start: isoSeconds(first), end: isoSeconds(last) });
    return http.get(url, (body, receivedAt) => parseCoinbaseCandles(body, product, granularity, receivedAt));
  });
}

/** Unix seconds as ISO 8601 without milliseconds. */
const isoSeconds = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
