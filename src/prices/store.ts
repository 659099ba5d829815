import type { Kysely } from 'kysely';
import type { DatabaseSchema, PriceCurrentRow, PricePointRow } from '../db/schema.ts';
import type { Observation } from './observation.ts';
import type { SampleResult } from './sample.ts';

// Prices in the database (docs/prices.md#history): each round's observations, the latest aggregate per token and
// the aggregates at interval boundaries, written in one transaction so a crash leaves a round whole
// or absent. A boundary's point is the first aggregate sampled at or after it within its interval:
// the price at that time, as far as the sampling period allows; later rounds never overwrite it.

export const PRICE_INTERVALS = { '5m': 5 * 60_000, '1h': 60 * 60_000, '1d': 24 * 60 * 60_000 } as const;
export type PriceInterval = keyof typeof PRICE_INTERVALS;

type Db = Kysely<DatabaseSchema>;

/** Records one round sampled at `sampledAt` (ms). */
export async function recordSample(db: Db, sample: SampleResult, sampledAt: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (sample.observations.length)
      await trx
        .insertInto('price_observations')
        .values(sample.observations.map((observation) => observationRow(observation, sampledAt)))
        .onConflict((conflict) => conflict.columns(['source_id', 'symbol', 'observed_at']).doNothing())
        .execute();
    for (const [symbol, price] of sample.prices) {
      const skipped = sample.skipped.filter((skip) => skip.symbol === symbol).map((skip) => ({ id: skip.source.id, reason: skip.reason }));
      const row: PriceCurrentRow = price.ok
        ? {
            symbol,
            value: price.value.value,
            observed_at: price.value.observedAt,
            error: null,
            sources: JSON.stringify({
              used: price.value.used.map((observation) => observation.source.id),
              dropped: [...price.value.dropped.map((drop) => ({ id: drop.source.id, reason: drop.reason })), ...skipped],
            }),
            sampled_at: sampledAt,
          }
        : {
            symbol,
            value: null,
            observed_at: null,
            error: price.error.message,
            sources: JSON.stringify({ used: [], dropped: skipped }),
            sampled_at: sampledAt,
          };
      const { symbol: _key, ...update } = row;
      await trx
        .insertInto('price_current')
        .values(row)
        .onConflict((conflict) => conflict.column('symbol').doUpdateSet(update))
        .execute();
      if (!price.ok) continue;
      const points: PricePointRow[] = (Object.keys(PRICE_INTERVALS) as PriceInterval[]).map((interval) => ({
        symbol,
        interval,
        bucket_start: bucketStart(sampledAt, interval),
        value: price.value.value,
        observed_at: price.value.observedAt,
      }));
      await trx
        .insertInto('price_points')
        .values(points)
        .onConflict((conflict) => conflict.columns(['symbol', 'interval', 'bucket_start']).doNothing())
        .execute();
    }
  });
}

/** The start of the interval `at` falls in (UTC: days start at midnight). */
export function bucketStart(at: number, interval: PriceInterval): number {
  const size = PRICE_INTERVALS[interval];
  return Math.floor(at / size) * size;
}

/** What an answer needs of a symbol's latest aggregate: not its per-source record, which only explains it. */
export type CurrentPrice = Pick<PriceCurrentRow, 'symbol' | 'value' | 'observed_at' | 'error' | 'sampled_at'>;

/** The latest aggregates of these symbols. */
export async function currentPrices(db: Db, symbols: readonly string[]): Promise<Map<string, CurrentPrice>> {
  if (!symbols.length) return new Map();
  const rows = await db
    .selectFrom('price_current')
    .select(['symbol', 'value', 'observed_at', 'error', 'sampled_at'])
    .where('symbol', 'in', [...new Set(symbols)])
    .execute();
  return new Map(
    rows.map((row) => [row.symbol, { ...row, observed_at: row.observed_at === null ? null : Number(row.observed_at), sampled_at: Number(row.sampled_at) }]),
  );
}

/** The points of one symbol at one interval with from ≤ boundary ≤ to, oldest first. */
export async function pricePoints(
  db: Db,
  symbol: string,
  interval: PriceInterval,
  from: number,
  to: number,
): Promise<Array<{ bucketStart: number; value: string }>> {
  const rows = await db
    .selectFrom('price_points')
    .select(['bucket_start', 'value'])
    .where('symbol', '=', symbol)
    .where('interval', '=', interval)
    .where('bucket_start', '>=', from)
    .where('bucket_start', '<=', to)
    .orderBy('bucket_start')
    .execute();
  return rows.map((row) => ({ bucketStart: Number(row.bucket_start), value: row.value }));
}

/** Past observations and the points they make, in one transaction; a point already there is kept. Returns the points added. */
export async function recordHistory(db: Db, observations: readonly Observation[], points: readonly PricePointRow[], recordedAt: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    // In slices: SQLite binds at most 32,766 parameters a statement.
    for (let i = 0; i < observations.length; i += 1000)
      await trx
        .insertInto('price_observations')
        .values(observations.slice(i, i + 1000).map((observation) => observationRow(observation, recordedAt)))
        .onConflict((conflict) => conflict.columns(['source_id', 'symbol', 'observed_at']).doNothing())
        .execute();
    let added = 0;
    for (let i = 0; i < points.length; i += 1000) {
      const inserted = await trx
        .insertInto('price_points')
        .values(points.slice(i, i + 1000))
        .onConflict((conflict) => conflict.columns(['symbol', 'interval', 'bucket_start']).doNothing())
        .executeTakeFirst();
      added += Number(inserted.numInsertedOrUpdatedRows ?? 0);
    }
    return added;
  });
}

function observationRow(observation: Observation & { conversion?: unknown }, recordedAt: number) {
  return {
    source_id: observation.source.id,
    symbol: observation.symbol,
    observed_at: observation.observedAt,
    kind: observation.source.kind,
    value: observation.value,
    liquidity_usd: observation.liquidityUsd ?? null,
    volume_usd: observation.volumeUsd ?? null,
    conversion: observation.conversion ? JSON.stringify(observation.conversion) : null,
    recorded_at: recordedAt,
  };
}
