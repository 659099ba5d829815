import { describe, expect, it } from 'vitest';
import { parseTime } from '../../../../src/prices/api/time.ts';

describe('parseTime', () => {
  it('reads ISO 8601 with or without a zone (UTC), and unix seconds as a number or digits', () => {
    expect(parseTime('2026-08-01T00:00:00Z')).toBe(Date.UTC(2026, 7, 1));
    expect(parseTime('2026-08-01T02:00:00+02:00')).toBe(Date.UTC(2026, 7, 1));
    expect(parseTime('2026-08-01T00:00:00.250Z')).toBe(Date.UTC(2026, 7, 1) + 250);
    expect(parseTime('2026-08-01')).toBe(Date.UTC(2026, 7, 1));
    expect(parseTime('2026-08-01T12:30')).toBe(Date.UTC(2026, 7, 1, 12, 30));
    expect(parseTime(1_785_542_400)).toBe(1_785_542_400_000);
    expect(parseTime('1785542400')).toBe(1_785_542_400_000);
  });

  it('refuses what is not a time rather than guessing', () => {
    for (const text of ['yesterday', '2026-02-30', '2026-13-01', '2026-08-01T25:00', '08/01/2026', '', '1e9', '2026-08-01Tnoon'])
      expect(parseTime(text), text).toBeNull();
    expect(parseTime(Number.NaN)).toBeNull();
    expect(parseTime(Number.POSITIVE_INFINITY)).toBeNull();
  });
});
