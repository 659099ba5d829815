import { z } from 'zod';
import { fixedMul } from '../decimal.ts';
import { makeObservation, type Observation, type SourceRef } from '../observation.ts';
import { ok, type Result } from '../result.ts';
import {
  candleObservations,
  type ExchangeCode,
  exchangeRefusal,
  nonNegativeDecimalNumber,
  nonNegativeDecimalText,
  parseBody,
  positiveDecimalNumber,
  positiveDecimalText,
} from './response.ts';

// Coinbase Exchange's public market data (docs/prices.md#sources): `GET /products/{id}/ticker` (the last trade,
// with the exchange's time and the 24-hour volume in the base currency) and `GET /products/{id}/candles`
// (`[time, low, high, open, close, volume]` rows, newest first, prices as JSON numbers).

/** Which product prices which token: a dollar product such as `ETH-USD`. */
export interface CoinbaseProduct {
  symbol: string;
  productId: string;
}

/** The source a product's quotes come from: `coinbase:<product>`. */
export const coinbaseSource = (productId: string): SourceRef => ({ kind: 'exchange', id: `coinbase:${productId}` });

/** Coinbase refuses with a JSON object whose `message` says why (`NotFound`). */
const CoinbaseRefusal = z.object({ message: z.string() });

const CoinbaseTicker = z.object({
  price: positiveDecimalText,
  volume: nonNegativeDecimalText,
  time: z.iso.datetime({ offset: true }),
});

const refusal = (body: string, endpoint: string) => exchangeRefusal(body, CoinbaseRefusal, (refused) => refused.message, endpoint);

/** The ticker as an observation at the exchange's time, weighted by 24-hour volume × last price. */
export function parseCoinbaseTicker(body: string, product: CoinbaseProduct): Result<Observation, ExchangeCode> {
  const endpoint = `Coinbase /products/${product.productId}/ticker`;
  const refused = refusal(body, endpoint);
  if (refused) return refused;
  const parsed = parseBody(body, CoinbaseTicker, endpoint);
  if (!parsed.ok) return parsed;
  const { price, volume, time } = parsed.value;
  return ok(makeObservation(coinbaseSource(product.productId), product.symbol, price, Date.parse(time), { volumeUsd: fixedMul(volume, price) }));
}

const CoinbaseCandles = z.array(
  z.tuple([
    z.number().int().nonnegative(),
    positiveDecimalNumber,
    positiveDecimalNumber,
    positiveDecimalNumber,
    positiveDecimalNumber,
    nonNegativeDecimalNumber,
  ]),
);

/** Candles of `granularitySeconds` as observations of their close at their end, oldest first, the running one left out (`receivedAt`, ms). */
export function parseCoinbaseCandles(
  body: string,
  product: CoinbaseProduct,
  granularitySeconds: number,
  receivedAt: number,
): Result<Observation[], ExchangeCode> {
  const endpoint = `Coinbase /products/${product.productId}/candles`;
  const refused = refusal(body, endpoint);
  if (refused) return refused;
  const parsed = parseBody(body, CoinbaseCandles, endpoint);
  if (!parsed.ok) return parsed;
  const candles = parsed.value.map(([start, , , , close, volume]) => ({ start, close, volumeUsd: fixedMul(volume, close) }));
  return ok(candleObservations(candles, coinbaseSource(product.productId), product.symbol, granularitySeconds, receivedAt));
}
