import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/schema.ts';
import { aggregatePrice } from './aggregate.ts';
import type { ExchangeSource } from './exchanges/source.ts';
import type { Observation } from './observation.ts';
import { recordHistory, type PriceInterval } from './store.ts';

// History from exchange candles (docs/prices.md#history: "exchange candles backfill history when online"): each
// dollar market's candles over the range an interval answers, closes observed at the candle's end,
// which is an interval boundary; per token and boundary, the aggregate of the markets' closes is the
// point there unless the sampler already recorded one (points are never overwritten).

/** How far back each interval is filled: the range the historical endpoint answers for it. */
const BACKFILL_RANGES: Record<PriceInterval, number> = { '1d': 365 * 86_400_000, '1h': 30 * 86_400_000, '5m': 7 * 86_400_000 };

export interface BackfillResult {
  points: number;
  /** Markets that gave nothing for an interval, and why. */
  failed: Array<{ source: string; interval: PriceInterval; reason: string }>;
}

export async function backfillHistory(options: {
  db: Kysely<DatabaseSchema>;
  markets: readonly ExchangeSource[];
  now: number;
  madThreshold: number;
}): Promise<BackfillResult> {
  const failed: BackfillResult['failed'] = [];
  let points = 0;
  for (const interval of Object.keys(BACKFILL_RANGES) as PriceInterval[]) {
    const closes: Observation[] = [];
    for (const market of options.markets) {
      if (market.quote !== 'usd') continue;
      const answer = await market.candles(interval, options.now - BACKFILL_RANGES[interval], options.now);
      if (answer.ok) closes.push(...(answer.value as Observation[]));
      else failed.push({ source: market.id, interval, reason: answer.error.message });
    }
    const byBoundary = new Map<string, Observation[]>();
    for (const close of closes) {
      const key = `${close.symbol} ${close.observedAt}`;
      byBoundary.set(key, [...(byBoundary.get(key) ?? []), close]);
    }
    const rows = [];
    for (const group of byBoundary.values()) {
      // Every close is of its own time: fresh by definition at its boundary.
      const at = group[0]!.observedAt;
      const aggregate = aggregatePrice(group, { now: at, maxAgeMs: { 'amm-v2': 0, 'amm-v3': 0, oracle: 0, exchange: 0 }, madThreshold: options.madThreshold });
      if (aggregate.ok) rows.push({ symbol: group[0]!.symbol, interval, bucket_start: at, value: aggregate.value.value, observed_at: at });
    }
    points += await recordHistory(options.db, closes, rows, options.now);
  }
  return { points, failed };
}
