import { z } from 'zod';
import { type Fixed, numberToFixed, parseDecimal } from '../decimal.ts';
import { makeObservation, type Observation, type SourceRef } from '../observation.ts';
import { fail, type Result } from '../result.ts';

// Reading an exchange's public REST answer (docs/prices.md#sources): JSON whose shape is checked before a number
// is used, with decimal strings kept exact. Anything else is `garbage`; the exchange's own refusal is
// `exchange-error` with its words.

export type ExchangeCode = 'garbage' | 'exchange-error';

const decimal = (least: 'positive' | 'non-negative') => (value: Fixed | null, ctx: z.RefinementCtx) => {
  if (value === null || value < 0n || (least === 'positive' && value === 0n)) {
    ctx.addIssue({ code: 'custom', message: `must be a ${least} decimal number` });
    return z.NEVER;
  }
  return value;
};

/** A decimal string ("6268.48") above 0, as a Fixed. */
export const positiveDecimalText = z.string().transform((text, ctx) => decimal('positive')(parseDecimal(text), ctx));
/** A decimal string of 0 or more, as a Fixed. */
export const nonNegativeDecimalText = z.string().transform((text, ctx) => decimal('non-negative')(parseDecimal(text), ctx));
/** A JSON number above 0, as a Fixed. */
export const positiveDecimalNumber = z.number().transform((value, ctx) => decimal('positive')(numberToFixed(value), ctx));
/** A JSON number of 0 or more, as a Fixed. */
export const nonNegativeDecimalNumber = z.number().transform((value, ctx) => decimal('non-negative')(numberToFixed(value), ctx));

/** The body parsed by `schema`, or `garbage` naming the endpoint and the first thing that does not fit. */
export function parseBody<S extends z.ZodType>(body: string, schema: S, endpoint: string): Result<z.output<S>, ExchangeCode> {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return fail('garbage', `${endpoint} answered something that is not JSON: ${JSON.stringify(body.slice(0, 80))}`);
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0]!;
  const path = issue.path.length === 0 ? 'the answer' : issue.path.map(String).join('.');
  return fail('garbage', `${endpoint} answered an unexpected shape: ${path} ${issue.message}`);
}

/** The exchange's own refusal (`exchange-error` with its words) when the body is one by `schema`, else null. */
export function exchangeRefusal<S extends z.ZodType>(
  body: string,
  schema: S,
  words: (refusal: z.output<S>) => string,
  endpoint: string,
): Result<never, ExchangeCode> | null {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return null;
  }
  const refused = schema.safeParse(json);
  return refused.success ? fail('exchange-error', `${endpoint} refused: ${words(refused.data)}`) : null;
}

/** One candle as the price history needs it: when it started (unix seconds), its close and the dollars traded in it. */
export interface Candle {
  start: number;
  close: Fixed;
  volumeUsd: Fixed;
}

/**
 * Candles of `intervalSeconds` as observations of their close at their end, oldest first. A candle still
 * running when the answer came (`receivedAt`, ms) is left out: its close would still change.
 */
export function candleObservations(candles: readonly Candle[], source: SourceRef, symbol: string, intervalSeconds: number, receivedAt: number): Observation[] {
  return candles
    .filter((candle) => (candle.start + intervalSeconds) * 1000 <= receivedAt)
    .sort((a, b) => a.start - b.start)
    .map((candle) => makeObservation(source, symbol, candle.close, (candle.start + intervalSeconds) * 1000, { volumeUsd: candle.volumeUsd }));
}
