import { describe, expect, it } from 'vitest';
import { candleRange, pagedCandles } from '../../../../src/prices/exchanges/candle-range.ts';
import { fail, ok } from '../../../../src/prices/result.ts';

const DAY = 86_400;
const T = Date.parse('2026-01-01T00:00:00Z') / 1000;
const at = (seconds: number) => ({ observedAt: seconds * 1000 });

describe('candleRange', () => {
  it('holds the candles ending within [from, to], none ending after now', () => {
    expect(candleRange('1d', T * 1000, (T + 3 * DAY) * 1000, (T + 10 * DAY) * 1000)).toEqual({ seconds: DAY, first: T - DAY, last: T + 2 * DAY });
    expect(candleRange('1h', (T + 1) * 1000, (T + 7200 - 1) * 1000, Number.POSITIVE_INFINITY)).toEqual({ seconds: 3600, first: T, last: T });
    expect(candleRange('5m', T * 1000, (T + DAY) * 1000, (T + 599) * 1000)).toEqual({ seconds: 300, first: T - 300, last: T });
    expect(candleRange('5m', (T + 1) * 1000, (T + 299) * 1000, Number.POSITIVE_INFINITY)).toBeNull();
    expect(candleRange('1d', (T + DAY) * 1000, T * 1000, Number.POSITIVE_INFINITY)).toBeNull();
  });
});

describe('pagedCandles', () => {
  it('asks window after window, and keeps each end in the range once, oldest first', async () => {
    const range = candleRange('1d', T * 1000, (T + 9 * DAY) * 1000, Number.POSITIVE_INFINITY);
    const windows: [number, number][] = [];
    const answer = await pagedCandles(range, 4, async (first, last) => {
      windows.push([first, last]);
      // Answers a candle before the window and its own candles newest first, as Coinbase may.
      const ends = [];
      for (let start = last; start >= first - DAY; start -= DAY) ends.push(at(start + DAY));
      return ok(ends);
    });
    expect(windows).toEqual([
      [T - DAY, T + 2 * DAY],
      [T + 3 * DAY, T + 6 * DAY],
      [T + 7 * DAY, T + 8 * DAY],
    ]);
    expect(answer.ok && answer.value.map((o) => (o.observedAt / 1000 - T) / DAY)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('answers the first failure, and nothing for an empty range', async () => {
    const range = candleRange('1d', T * 1000, (T + 9 * DAY) * 1000, Number.POSITIVE_INFINITY);
    let asked = 0;
    const failed = await pagedCandles(range, 4, async () => (++asked === 2 ? fail('garbage', 'bad page') : ok([])));
    expect(failed).toEqual({ ok: false, error: { code: 'garbage', message: 'bad page' } });
    expect(asked).toBe(2);
    expect(await pagedCandles(null, 4, async () => fail('garbage', 'never asked'))).toEqual({ ok: true, value: [] });
  });
});
