import { z } from 'zod';
import { makeObservation, type SourceRef } from '../observation.ts';
import { fail, ok, type Result } from '../result.ts';
import { candleObservations, type ExchangeCode, exchangeRefusal, nonNegativeDecimalText, parseBody, positiveDecimalText } from './response.ts';
import { inUsdt, type UsdtObservation } from './usdt.ts';

// Binance's public market data (docs/prices.md#sources): `GET /api/v3/ticker/24hr?symbol=` (the last price and the
// rolling 24 hours' statistics up to `closeTime`) and `GET /api/v3/klines` (rows of
// `[openTime, open, high, low, close, volume, closeTime, quoteVolume, …]`, prices as decimal strings,
// times in ms). A USDT market's numbers are tether, so its observations are UsdtObservations.

/** Which market prices which token: a USDT market such as `ETHUSDT` (Binance calls it a symbol). */
export interface BinanceSymbol {
  /** The token's symbol in the token list. */
  symbol: string;
  binanceSymbol: string;
}

/** The source a market's quotes come from: `binance:<symbol>`. */
export const binanceSource = (binanceSymbol: string): SourceRef => ({ kind: 'exchange', id: `binance:${binanceSymbol}` });

/** Binance refuses with `{ code, msg }` (`-1121 Invalid symbol.`). */
const BinanceRefusal = z.object({ code: z.number().int(), msg: z.string() });

const refusal = (body: string, endpoint: string) => exchangeRefusal(body, BinanceRefusal, (refused) => `${refused.code} ${refused.msg}`, endpoint);

const BinanceTicker = z.object({
  lastPrice: positiveDecimalText,
  /** Volume in the quote asset: tether for a USDT market. */
  quoteVolume: nonNegativeDecimalText,
  /** The end of the 24-hour window, ms. */
  closeTime: z.number().int().positive(),
});

/** The last price as a tether observation at the statistics' closeTime, weighted by the 24 hours' quote volume. */
export function parseBinanceTicker(body: string, market: BinanceSymbol): Result<UsdtObservation, ExchangeCode> {
  const endpoint = `Binance /api/v3/ticker/24hr?symbol=${market.binanceSymbol}`;
  const refused = refusal(body, endpoint);
  if (refused) return refused;
  const parsed = parseBody(body, BinanceTicker, endpoint);
  if (!parsed.ok) return parsed;
  const { lastPrice, quoteVolume, closeTime } = parsed.value;
  return ok(inUsdt(makeObservation(binanceSource(market.binanceSymbol), market.symbol, lastPrice, closeTime, { volumeUsd: quoteVolume })));
}

const openTime = z
  .number()
  .int()
  .nonnegative()
  .refine((ms) => ms % 1000 === 0, { error: 'must be a whole second' });

/** [open time, open, high, low, close, volume, close time, quote volume, …]; later fields are not read. */
const BinanceKlines = z.array(
  z.tuple(
    [
      openTime,
      positiveDecimalText,
      positiveDecimalText,
      positiveDecimalText,
      positiveDecimalText,
      nonNegativeDecimalText,
      z.number().int(),
      nonNegativeDecimalText,
    ],
    z.unknown(),
  ),
);

/**
 * Klines of `intervalSeconds` as tether observations of their close at their end, oldest first, the
 * running one left out (`receivedAt`, ms); weighted by their quote volume. A kline whose close time is
 * not its open time + interval − 1 ms is of another interval: `garbage`.
 */
export function parseBinanceKlines(body: string, market: BinanceSymbol, intervalSeconds: number, receivedAt: number): Result<UsdtObservation[], ExchangeCode> {
  const endpoint = `Binance /api/v3/klines?symbol=${market.binanceSymbol}`;
  const refused = refusal(body, endpoint);
  if (refused) return refused;
  const parsed = parseBody(body, BinanceKlines, endpoint);
  if (!parsed.ok) return parsed;
  const other = parsed.value.find(([open, , , , , , close]) => close !== open + intervalSeconds * 1000 - 1);
  if (other) return fail('garbage', `${endpoint} answered a kline from ${other[0]} to ${other[6]}, not of ${intervalSeconds} s`);
  const candles = parsed.value.map(([open, , , , close, , , quoteVolume]) => ({ start: open / 1000, close, volumeUsd: quoteVolume }));
  return ok(candleObservations(candles, binanceSource(market.binanceSymbol), market.symbol, intervalSeconds, receivedAt).map(inUsdt));
}
