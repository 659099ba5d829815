import type { Usage } from './types.ts';

// An app's usage (GET /api/dashboard/apps/{id}/usage) as its charts and tables show it (pure:
// unit-tested): one series per network and method, every bucket of the range on the time axis
// (those without calls at 0, so a quiet hour is a gap in the line, not a missing point), and the
// same numbers as table rows.

export type UsageMetric = 'requests' | 'computeUnits';

const BUCKET_MS: Readonly<Record<Usage['bucket'], number>> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };

interface UsageSeries {
  /** `network · method`, or the label of the series that sums the rest. */
  label: string;
  /** One value per time of the table. */
  values: number[];
  total: number;
}

export interface UsageTable {
  /** Bucket starts in ms since the epoch, oldest first. */
  times: number[];
  /** Largest total first. */
  series: UsageSeries[];
  /** Per time, every series summed. */
  totals: number[];
  total: number;
}

export interface UsageTableOptions {
  /** Series beyond this many are summed into one labelled `otherLabel`. */
  maxSeries: number;
  otherLabel: string;
}

/** Every bucket start from the one holding `from` up to `to` (exclusive), on the server's UTC grid, plus any the points name off it. */
export function bucketStarts(usage: Pick<Usage, 'bucket' | 'from' | 'to' | 'points'>): number[] {
  const size = BUCKET_MS[usage.bucket];
  const from = Date.parse(usage.from);
  const to = Date.parse(usage.to);
  const starts = new Set<number>();
  for (let start = from - (from % size); start < to; start += size) starts.add(start);
  for (const point of usage.points) starts.add(Date.parse(point.start));
  return [...starts].sort((a, b) => a - b);
}

function seriesLabel(network: string, method: string): string {
  return `${network} · ${method}`;
}

export function usageTable(usage: Usage, metric: UsageMetric, options: UsageTableOptions): UsageTable {
  const times = bucketStarts(usage);
  const index = new Map(times.map((time, at) => [time, at]));
  const byLabel = new Map<string, number[]>();
  for (const point of usage.points) {
    const label = seriesLabel(point.network, point.method);
    let values = byLabel.get(label);
    if (!values) byLabel.set(label, (values = new Array<number>(times.length).fill(0)));
    values[index.get(Date.parse(point.start))!]! += point[metric];
  }
  const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
  const all = [...byLabel]
    .map(([label, values]) => ({ label, values, total: sum(values) }))
    .filter((series) => series.total > 0)
    .sort((a, b) => b.total - a.total || a.label.localeCompare(b.label));
  const kept = all.length > options.maxSeries ? all.slice(0, options.maxSeries - 1) : all;
  const rest = all.slice(kept.length);
  const series =
    rest.length === 0
      ? kept
      : [
          ...kept,
          { label: options.otherLabel, values: times.map((_, at) => sum(rest.map((one) => one.values[at]!))), total: sum(rest.map((one) => one.total)) },
        ];
  const totals = times.map((_, at) => sum(series.map((one) => one.values[at]!)));
  return { times, series, totals, total: sum(totals) };
}

export interface UsageRow {
  time: number;
  values: number[];
  total: number;
}

/** The table's rows: the buckets with any calls, oldest first (the chart shows the quiet ones as 0). */
export function usageRows(table: UsageTable): UsageRow[] {
  return table.times.flatMap((time, at) =>
    table.totals[at]! > 0 ? [{ time, values: table.series.map((series) => series.values[at]!), total: table.totals[at]! }] : [],
  );
}

/** uPlot's data: times in seconds, then one array per series. */
export function chartData(table: UsageTable): [number[], ...number[][]] {
  return [table.times.map((time) => time / 1000), ...table.series.map((series) => series.values)];
}

/** Errors by code, most first. */
export function errorCodes(usage: Pick<Usage, 'errorsByCode'>): { codes: string[]; counts: number[]; total: number } {
  const sorted = usage.errorsByCode.filter((entry) => entry.count > 0).sort((a, b) => b.count - a.count || a.code - b.code);
  return {
    codes: sorted.map((entry) => String(entry.code)),
    counts: sorted.map((entry) => entry.count),
    total: sorted.reduce((total, entry) => total + entry.count, 0),
  };
}
