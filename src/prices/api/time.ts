// Times the historical endpoint accepts (docs/prices.md#historical-prices): ISO 8601, read as UTC when it names no zone,
// or unix seconds as a number or a string of digits. Anything else is not guessed at.

const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/** ms since the epoch, or null when `value` is not a time. */
export function parseTime(value: string | number): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && Math.abs(value) < 1e11 ? Math.round(value * 1000) : null;
  const text = value.trim();
  if (/^\d{1,11}$/.test(text)) return Number(text) * 1000;
  const parts = ISO_8601.exec(text);
  if (!parts) return null;
  const [, year, month, day, hour = '00', minute = '00', second = '00', fraction = '', zone = 'Z'] = parts;
  const offset = zone.toUpperCase() === 'Z' ? 'Z' : zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  const iso = `${year}-${month}-${day}T${hour}:${minute}:${second}${fraction ? `.${fraction.padEnd(3, '0').slice(0, 3)}` : ''}${offset}`;
  const ms = Date.parse(iso);
  // Date.parse rolls 2026-02-30 over to March: a day or time out of range is refused.
  if (Number.isNaN(ms) || new Date(Date.parse(`${year}-${month}-${day}T00:00:00Z`)).getUTCDate() !== Number(day)) return null;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return null;
  return ms;
}
