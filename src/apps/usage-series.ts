import { sql, type Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/schema.ts';

// Usage over time for the dashboard (docs/dashboard.md#usage): the stored per-minute sums of one app,
// summed again by minute, hour or UTC day, per network and method.

type UsageBucket = 'minute' | 'hour' | 'day';

const BUCKET_MS: Readonly<Record<UsageBucket, number>> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };

export interface UsagePoint {
  /** Start of the bucket, ms since the epoch. */
  start: number;
  network: string;
  method: string;
  requests: number;
  computeUnits: number;
  errors: number;
}

export interface UsageSeriesOptions {
  /** Minutes from `from` (inclusive) to `to` (exclusive), ms since the epoch. */
  from: number;
  to: number;
  bucket: UsageBucket;
}

/** The points with any usage, oldest first, then by network and method. */
export async function readUsageSeries(db: Kysely<DatabaseSchema>, appId: string, { from, to, bucket }: UsageSeriesOptions): Promise<UsagePoint[]> {
  const size = BUCKET_MS[bucket];
  if (size === undefined) throw new RangeError(`bucket must be minute, hour or day (got ${JSON.stringify(bucket)})`);
  const start = sql<number>`minute - minute % ${sql.lit(size)}`;
  const rows = await db
    .selectFrom('usage_minutes')
    .select((eb) => [
      start.as('start'),
      'network',
      'method',
      eb.fn.sum<number | string>('requests').as('requests'),
      eb.fn.sum<number | string>('compute_units').as('compute_units'),
      eb.fn.sum<number | string>('errors').as('errors'),
    ])
    .where('app_id', '=', appId)
    .where('minute', '>=', from)
    .where('minute', '<', to)
    .groupBy([start, 'network', 'method'])
    .orderBy('start')
    .orderBy('network')
    .orderBy('method')
    .execute();
  // PostgreSQL sums bigints as numeric, which pg reads as text.
  return rows.map((row) => ({
    start: Number(row.start),
    network: row.network,
    method: row.method,
    requests: Number(row.requests),
    computeUnits: Number(row.compute_units),
    errors: Number(row.errors),
  }));
}
