import { ok } from '../result.ts';
import type { ExchangeResult } from './http.ts';

// History from exchange candles (docs/prices.md#history: `5m`, `1h`, `1d` points; exchange candles backfill history
// when online). A candle is observed at its end, so the points of a range [from, to] are the candles
// ending there; no exchange answers a year of them at once, so they are asked for page by page.

export type CandleInterval = '5m' | '1h' | '1d';

export const CANDLE_SECONDS: Record<CandleInterval, number> = { '5m': 300, '1h': 3600, '1d': 86_400 };

/** The candles wanted, by their starts in unix seconds: `first` to `last`, `seconds` apart. */
export interface CandleRange {
  seconds: number;
  first: number;
  last: number;
}

/** The candles of `interval` ending within [from, to] and by `now` (ms), or null when none can have. */
export function candleRange(interval: CandleInterval, from: number, to: number, now: number): CandleRange | null {
  const seconds = CANDLE_SECONDS[interval];
  const firstEnd = Math.ceil(from / 1000 / seconds) * seconds;
  const lastEnd = Math.floor(Math.min(to, now) / 1000 / seconds) * seconds;
  return lastEnd >= firstEnd ? { seconds, first: firstEnd - seconds, last: lastEnd - seconds } : null;
}

/**
 * The observations of `range`, asked for in windows of at most `perWindow` candles from its first start
 * (`fetchWindow(first, last)`, starts in unix seconds), oldest first, each end once: an exchange may answer
 * candles outside the window asked for. The first failure is the answer: a backfill asks again rather than
 * keep a history with a hole it cannot see.
 */
export async function pagedCandles<O extends { observedAt: number }>(
  range: CandleRange | null,
  perWindow: number,
  fetchWindow: (first: number, last: number) => Promise<ExchangeResult<readonly O[]>>,
): Promise<ExchangeResult<O[]>> {
  if (range === null) return ok([]);
  const fromMs = (range.first + range.seconds) * 1000;
  const toMs = (range.last + range.seconds) * 1000;
  const byEnd = new Map<number, O>();
  for (let first = range.first; first <= range.last; ) {
    const last = Math.min(first + (perWindow - 1) * range.seconds, range.last);
    const page = await fetchWindow(first, last);
    if (!page.ok) return page;
    for (const observation of page.value) {
      const end = observation.observedAt;
      if (end >= fromMs && end <= toMs && !byEnd.has(end)) byEnd.set(end, observation);
    }
    first = last + range.seconds;
  }
  return ok([...byEnd.values()].sort((a, b) => a.observedAt - b.observedAt));
}
