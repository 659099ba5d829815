import { LimitInputError } from './input.ts';

// Monthly quotas count per UTC calendar month, named `YYYY-MM`; a month's quota resets at the
// first instant of the next one.

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** `2026-01` for any instant of January 2026, UTC. */
export function utcMonthOf(date: Date): string {
  return date.toISOString().slice(0, 7);
}

/** The month whose reset was worked out last. */
let lastReset = { month: '', at: 0 };

/** The first instant of the month after `month`: when its quota resets. */
export function monthResetAt(month: string): Date {
  // Every call of a month asks for the same one: its reset is worked out once.
  if (month !== lastReset.month) lastReset = { month, at: resetOf(month) };
  return new Date(lastReset.at);
}

function resetOf(month: string): number {
  const match = MONTH.exec(month);
  if (!match) throw new LimitInputError(`month must be YYYY-MM, not ${JSON.stringify(month)}`);
  // Month index `MM` is the next month (12 rolls over into January); setUTCFullYear, unlike Date.UTC, takes years below 100 as written.
  const reset = new Date(0);
  return reset.setUTCFullYear(Number(match[1]), Number(match[2]), 1);
}
