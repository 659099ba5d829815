// RFC 9110 §10.2.3 Retry-After: a number of seconds or an HTTP date. Binance sends seconds with its 429
// and 418 answers; a date is honoured too.

/** How long the header asks to wait from `now` (ms), 0 for a date already past; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | null {
  if (header === null) return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) || !/[a-z]/i.test(text) ? null : Math.max(0, date - now);
}
