import { describe, expect, it } from 'vitest';
import type { Usage } from '../../../src/components/dashboard/types.ts';
import { bucketStarts, chartData, errorCodes, usageRows, usageTable } from '../../../src/components/dashboard/usage-data.ts';

// An app's usage answer as the charts and tables show it: every bucket of the range on the time
// axis, one series per network and method, the smallest summed into one, the same numbers as rows.

const minute = 60_000;
const t0 = Date.parse('2026-11-23T10:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

function usage(
  points: Array<[offsetMinutes: number, network: string, method: string, requests: number, computeUnits: number]>,
  errorsByCode: Usage['errorsByCode'] = [],
): Usage {
  return {
    range: 'hour',
    bucket: 'minute',
    from: iso(t0),
    to: iso(t0 + 5 * minute),
    points: points.map(([offset, network, method, requests, computeUnits]) => ({
      start: iso(t0 + offset * minute),
      network,
      method,
      requests,
      computeUnits,
      errors: 0,
    })),
    errorsByCode,
  };
}

type Point = Parameters<typeof usage>[0][number];

/** The table of `points` by `metric`, with up to `maxSeries` series. */
const tableOf = (points: Point[], metric: 'requests' | 'computeUnits' = 'requests', maxSeries = 8) =>
  usageTable(usage(points), metric, { maxSeries, otherLabel: 'Others' });

describe('bucketStarts', () => {
  it('lists every bucket from the one holding `from` up to `to`, on the UTC grid', () => {
    expect(bucketStarts({ bucket: 'minute', from: iso(t0 + 30_000), to: iso(t0 + 3 * minute), points: [] })).toEqual([t0, t0 + minute, t0 + 2 * minute]);
    const day = 86_400_000;
    expect(bucketStarts({ bucket: 'day', from: '2026-11-01T07:00:00.000Z', to: '2026-11-03T00:00:00.000Z', points: [] })).toEqual([
      Date.parse('2026-11-01T00:00:00.000Z'),
      Date.parse('2026-11-01T00:00:00.000Z') + day,
    ]);
  });

  it('keeps a point that falls off the grid rather than dropping its calls', () => {
    const answer = usage([[9, 'n', 'm', 1, 1]]);
    expect(bucketStarts(answer).at(-1)).toBe(t0 + 9 * minute);
  });
});

describe('usageTable', () => {
  it('gives one series per network and method, largest first, with 0 where a bucket had no calls', () => {
    const table = tableOf([
      [0, 'ethereum-sepolia', 'eth_blockNumber', 2, 20],
      [0, 'base-sepolia', 'eth_call', 1, 26],
      [3, 'ethereum-sepolia', 'eth_blockNumber', 5, 50],
    ]);
    expect(table.times).toEqual([t0, t0 + minute, t0 + 2 * minute, t0 + 3 * minute, t0 + 4 * minute]);
    expect(table.series).toEqual([
      { label: 'ethereum-sepolia · eth_blockNumber', values: [2, 0, 0, 5, 0], total: 7 },
      { label: 'base-sepolia · eth_call', values: [1, 0, 0, 0, 0], total: 1 },
    ]);
    expect(table.totals).toEqual([3, 0, 0, 5, 0]);
    expect(table.total).toBe(8);
    // The same answer by compute units orders the series by their own totals.
    const byComputeUnits = tableOf(
      [
        [0, 'a', 'x', 9, 1],
        [0, 'b', 'y', 1, 9],
      ],
      'computeUnits',
    );
    expect(byComputeUnits.series.map((series) => series.label)).toEqual(['b · y', 'a · x']);
  });

  it('sums the series beyond the limit into one, so a chart keeps its colours apart and no call is lost', () => {
    const points = Array.from({ length: 5 }, (_, index): Point => [index % 2, 'net', `method_${index}`, 10 - index, 1]);
    const table = tableOf(points, 'requests', 3);
    expect(table.series.map((series) => [series.label, series.total])).toEqual([
      ['net · method_0', 10],
      ['net · method_1', 9],
      ['Others', 8 + 7 + 6],
    ]);
    expect(table.series[2]!.values).toEqual([8 + 6, 7, 0, 0, 0]);
    expect(table.total).toBe(10 + 9 + 8 + 7 + 6);
  });

  it('leaves out series without any of the metric, and is empty without calls', () => {
    const table = tableOf([[0, 'net', 'eth_chainId', 3, 0]], 'computeUnits');
    expect(table.series).toEqual([]);
    expect(table.total).toBe(0);
    expect(usageRows(table)).toEqual([]);
  });
});

describe('usageRows and chartData', () => {
  const table = tableOf([
    [1, 'net', 'a', 4, 40],
    [1, 'net', 'b', 1, 10],
    [4, 'net', 'b', 2, 20],
  ]);

  it('gives the table the buckets with calls, each value in the series’ order, and their sum', () => {
    expect(usageRows(table)).toEqual([
      { time: t0 + minute, values: [4, 1], total: 5 },
      { time: t0 + 4 * minute, values: [0, 2], total: 2 },
    ]);
  });

  it('gives uPlot times in seconds and one array per series, the same numbers as the table', () => {
    const [times, ...series] = chartData(table);
    expect(times).toEqual(table.times.map((time) => time / 1000));
    expect(series).toEqual([
      [0, 4, 0, 0, 0],
      [0, 1, 0, 0, 2],
    ]);
  });
});

describe('errorCodes', () => {
  it('lists the codes with errors, most first, and their total', () => {
    expect(
      errorCodes({
        errorsByCode: [
          { code: 429, count: 2 },
          { code: -32602, count: 5 },
          { code: 403, count: 2 },
          { code: 500, count: 0 },
        ],
      }),
    ).toEqual({ codes: ['-32602', '403', '429'], counts: [5, 2, 2], total: 9 });
  });
});
