import { describe, expect, it } from 'vitest';
import { LimitInputError } from '../../../src/limits/input.ts';
import { monthResetAt, utcMonthOf } from '../../../src/limits/month.ts';

describe('UTC months', () => {
  it('names the UTC calendar month of an instant, whatever the local zone would say', () => {
    expect(utcMonthOf(new Date('2026-12-31T23:59:59.999Z'))).toBe('2026-12');
    expect(utcMonthOf(new Date('2027-01-01T00:00:00.000Z'))).toBe('2027-01');
    expect(utcMonthOf(new Date('2026-03-01T00:30:00+01:00'))).toBe('2026-02');
  });

  it('resets at the first instant of the next month, across a year and a leap day', () => {
    expect(monthResetAt('2026-12')).toEqual(new Date('2027-01-01T00:00:00.000Z'));
    expect(monthResetAt('2028-02')).toEqual(new Date('2028-03-01T00:00:00.000Z'));
    expect(monthResetAt('0099-01')).toEqual(new Date('0099-02-01T00:00:00.000Z'));
  });

  it('refuses anything but YYYY-MM', () => {
    for (const month of ['2026-13', '2026-00', '2026-1', '26-01', '2026-01-01', '']) expect(() => monthResetAt(month), month).toThrow(LimitInputError);
  });
});
