import type { ExchangeListing } from '../../token-list/price-sources.ts';
import type { Observation, SourceRef } from '../observation.ts';
import { binanceCandles, binanceTicker } from './binance-client.ts';
import { binanceSource } from './binance.ts';
import type { CandleInterval } from './candle-range.ts';
import { coinbaseCandles, coinbaseTicker } from './coinbase-client.ts';
import { coinbaseSource } from './coinbase.ts';
import type { ExchangeHttp, ExchangeResult } from './http.ts';
import { krakenCandles, krakenTicker } from './kraken-client.ts';
import { krakenSource } from './kraken.ts';
import type { UsdtObservation } from './usdt.ts';

// An exchange market as the token list names it (src/token-list/price-sources.ts) and the sampler holds it (docs/prices.md#sources): which exchange,
// which of its markets, and the two calls the sampler makes. Only markets quoted in dollars, or in USDT
// on Binance (its observations stay in tether until converted), can be listed.

type ExchangeName = ExchangeListing['exchange'];

interface QuotedSource<Quote extends string, O> {
  /** The observations' source id: `coinbase:ETH-USD`. */
  id: string;
  exchange: ExchangeName;
  /** The token's symbol in the token list. */
  symbol: string;
  /** What the quotes are in: dollars, or tether to be converted. */
  quote: Quote;
  /** The latest quote; `now` (ms) stamps one the exchange gives no time (Kraken's), else when it came. */
  ticker(now?: number): Promise<ExchangeResult<O>>;
  /** The closes of the candles of `interval` ending within [from, to] (ms), oldest first. */
  candles(interval: CandleInterval, from: number, to: number): Promise<ExchangeResult<O[]>>;
}

/** An exchange market the sampler asks; `quote` tells dollar sources from Binance's tether ones. */
export type ExchangeSource = QuotedSource<'usd', Observation> | QuotedSource<'usdt', UsdtObservation>;

export interface ExchangeSourceOptions {
  http: ExchangeHttp;
  /** Each exchange's API origin when not its public one (a test server, a proxy). */
  baseUrls?: Partial<Record<ExchangeName, string>>;
}

/** The source of `listing` for the token `symbol`. */
export function createExchangeSource(listing: ExchangeListing, symbol: string, options: ExchangeSourceOptions): ExchangeSource {
  const { http, baseUrls = {} } = options;
  const named = <Quote extends 'usd' | 'usdt'>(source: SourceRef, quote: Quote) => ({ id: source.id, exchange: listing.exchange, symbol, quote });
  switch (listing.exchange) {
    case 'coinbase': {
      const product = { symbol, productId: listing.product };
      const base = baseUrls.coinbase;
      const candles = (interval: CandleInterval, from: number, to: number) => coinbaseCandles(http, product, interval, from, to, base);
      return { ...named(coinbaseSource(listing.product), 'usd'), ticker: () => coinbaseTicker(http, product, base), candles };
    }
    case 'kraken': {
      const pair = { symbol, pair: listing.pair };
      const base = baseUrls.kraken;
      const candles = (interval: CandleInterval, from: number, to: number) => krakenCandles(http, pair, interval, from, to, base);
      return { ...named(krakenSource(listing.pair), 'usd'), ticker: (now?: number) => krakenTicker(http, pair, now, base), candles };
    }
    case 'binance': {
      const market = { symbol, binanceSymbol: listing.symbol };
      const base = baseUrls.binance;
      const candles = (interval: CandleInterval, from: number, to: number) => binanceCandles(http, market, interval, from, to, base);
      return { ...named(binanceSource(listing.symbol), 'usdt'), ticker: () => binanceTicker(http, market, base), candles };
    }
  }
}
