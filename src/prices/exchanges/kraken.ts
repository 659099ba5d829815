import { z } from 'zod';
import { fixedMul } from '../decimal.ts';
import { makeObservation, type Observation, type SourceRef } from '../observation.ts';
import { fail, ok, type Result } from '../result.ts';
import { candleObservations, type ExchangeCode, nonNegativeDecimalText, parseBody, positiveDecimalText } from './response.ts';

// Kraken's public market data (docs/prices.md#sources): `GET /0/public/Ticker?pair=` and `GET /0/public/OHLC?pair=`,
// both `{ error: [...], result: { <pair>: … } }`. Kraken keys the result by its own name of the pair
// (`XXBTZUSD` for `XBTUSD`), so a result of exactly one pair is that pair whatever its key.

/** Which pair prices which token: a dollar pair such as `XETHZUSD` or `ETHUSD`. */
export interface KrakenPair {
  symbol: string;
  pair: string;
}

/** The source a pair's quotes come from: `kraken:<pair>`. */
export const krakenSource = (pair: string): SourceRef => ({ kind: 'exchange', id: `kraken:${pair}` });

const KrakenEnvelope = z.object({ error: z.array(z.string()), result: z.record(z.string(), z.unknown()).optional() });

/** The result entry of `pair`, or `exchange-error` with Kraken's messages, or `garbage`. */
function pairEntry<S extends z.ZodType>(body: string, pair: string, entry: S, endpoint: string): Result<z.output<S>, ExchangeCode> {
  const answer = parseBody(body, KrakenEnvelope, endpoint);
  if (!answer.ok) return answer;
  const { error, result } = answer.value;
  if (error.length > 0) return fail('exchange-error', `${endpoint} refused: ${error.join('; ')}`);
  const pairs = Object.keys(result ?? {}).filter((key) => key !== 'last');
  const key = pairs.includes(pair) ? pair : pairs.length === 1 ? pairs[0]! : null;
  if (key === null) return fail('garbage', `${endpoint} answered pairs ${JSON.stringify(pairs)}, not ${pair}`);
  const parsed = entry.safeParse(result![key]);
  if (parsed.success) return ok(parsed.data);
  const issue = parsed.error.issues[0]!;
  return fail('garbage', `${endpoint} answered an unexpected shape: result.${[key, ...issue.path.map(String)].join('.')} ${issue.message}`);
}

const KrakenTicker = z.object({
  /** Last trade closed: [price, lot volume]. */
  c: z.tuple([positiveDecimalText, z.string()]),
  /** Volume: [today, last 24 hours]. */
  v: z.tuple([nonNegativeDecimalText, nonNegativeDecimalText]),
  /** Volume-weighted average price: [today, last 24 hours]. */
  p: z.tuple([nonNegativeDecimalText, nonNegativeDecimalText]),
});

/** The last trade as an observation at `receivedAt` (ms; the ticker carries no time), weighted by the last 24 hours' volume × their average price. */
export function parseKrakenTicker(body: string, pair: KrakenPair, receivedAt: number): Result<Observation, ExchangeCode> {
  const ticker = pairEntry(body, pair.pair, KrakenTicker, `Kraken /0/public/Ticker?pair=${pair.pair}`);
  if (!ticker.ok) return ticker;
  const { c, v, p } = ticker.value;
  return ok(makeObservation(krakenSource(pair.pair), pair.symbol, c[0], receivedAt, { volumeUsd: fixedMul(v[1], p[1]) }));
}

/** [time, open, high, low, close, vwap, volume, count]. */
const KrakenCandles = z.array(
  z.tuple([
    z.number().int().nonnegative(),
    positiveDecimalText,
    positiveDecimalText,
    positiveDecimalText,
    positiveDecimalText,
    nonNegativeDecimalText,
    nonNegativeDecimalText,
    z.number().int().nonnegative(),
  ]),
);

/** Candles of `intervalSeconds` as observations of their close at their end, oldest first; the running candle Kraken always appends is left out (`receivedAt`, ms). */
export function parseKrakenCandles(body: string, pair: KrakenPair, intervalSeconds: number, receivedAt: number): Result<Observation[], ExchangeCode> {
  const parsed = pairEntry(body, pair.pair, KrakenCandles, `Kraken /0/public/OHLC?pair=${pair.pair}`);
  if (!parsed.ok) return parsed;
  const candles = parsed.value.map(([start, , , , close, vwap, volume]) => ({ start, close, volumeUsd: fixedMul(volume, vwap) }));
  return ok(candleObservations(candles, krakenSource(pair.pair), pair.symbol, intervalSeconds, receivedAt));
}
