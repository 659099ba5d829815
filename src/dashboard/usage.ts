import { sql, type Kysely } from 'kysely';
import type { z } from 'zod';
import { readUsageSeries } from '../apps/usage-series.ts';
import type { DatabaseSchema } from '../db/schema.ts';
import type { USAGE_RANGES, Usage } from './schemas.ts';

// An app's usage over the last hour, day or month (docs/dashboard.md#usage), from the usage meter's stored
// per-minute sums: requests and compute units per bucket, network and method, and errors by code.
// The range ends with the bucket now in progress, so a call made a moment ago is in it once stored.

type UsageRange = (typeof USAGE_RANGES)[number];

const WINDOWS = {
  hour: { bucket: 'minute', sizeMs: 60_000, buckets: 60 },
  day: { bucket: 'hour', sizeMs: 3_600_000, buckets: 24 },
  month: { bucket: 'day', sizeMs: 86_400_000, buckets: 30 },
} as const satisfies Record<UsageRange, { bucket: 'minute' | 'hour' | 'day'; sizeMs: number; buckets: number }>;

/** From the start of the first bucket to the end of the one `now` is in (UTC; days from midnight). */
export function usageWindow(range: UsageRange, now: number): { bucket: 'minute' | 'hour' | 'day'; from: number; to: number } {
  const { bucket, sizeMs, buckets } = WINDOWS[range];
  const to = now - (now % sizeMs) + sizeMs;
  return { bucket, from: to - buckets * sizeMs, to };
}

export async function readAppUsage(db: Kysely<DatabaseSchema>, appId: string, range: UsageRange, now: number): Promise<z.infer<typeof Usage>> {
  const { bucket, from, to } = usageWindow(range, now);
  const [points, errors] = await Promise.all([
    readUsageSeries(db, appId, { from, to, bucket }),
    db
      .selectFrom('usage_errors')
      .select((eb) => ['code', eb.fn.sum<number | string>('count').as('count')])
      .where('app_id', '=', appId)
      .where('minute', '>=', from)
      .where('minute', '<', to)
      .groupBy('code')
      .orderBy(sql`sum(count)`, 'desc')
      .orderBy('code')
      .execute(),
  ]);
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    range,
    bucket,
    from: iso(from),
    to: iso(to),
    points: points.map((point) => ({ ...point, start: iso(point.start) })),
    // PostgreSQL sums bigints as numeric, which pg reads as text.
    errorsByCode: errors.map((row) => ({ code: row.code, count: Number(row.count) })),
  };
}
