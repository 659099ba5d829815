import { describe, expect, it } from 'vitest';
import { createHostBackoff } from '../../../../src/prices/exchanges/backoff.ts';
import { retryAfterMs } from '../../../../src/prices/exchanges/retry-after.ts';

const T = Date.parse('2026-01-01T00:00:00Z');
const MINUTE = 60_000;

describe('createHostBackoff', () => {
  it('waits 30 s after a failure, doubling to 30 min, per host, until a success', () => {
    const backoff = createHostBackoff();
    expect(backoff.until('api.kraken.com', T)).toBeNull();
    const waits = [1, 2, 3, 4, 5, 6, 7, 8, 9].map(() => backoff.failed('api.kraken.com', T) - T);
    expect(waits).toEqual([0.5, 1, 2, 4, 8, 16, 30, 30, 30].map((minutes) => minutes * MINUTE));
    expect(backoff.until('api.kraken.com', T + 30 * MINUTE - 1)).toBe(T + 30 * MINUTE);
    expect(backoff.until('api.kraken.com', T + 30 * MINUTE)).toBeNull();
    expect(backoff.until('api.exchange.coinbase.com', T)).toBeNull();
    backoff.succeeded('api.kraken.com');
    expect(backoff.failed('api.kraken.com', T) - T).toBe(0.5 * MINUTE);
  });

  it("waits as long as the host's Retry-After when that is longer", () => {
    const backoff = createHostBackoff({ initialMs: 1000, maxMs: 8000 });
    expect(backoff.failed('h', T, 120_000)).toBe(T + 120_000);
    expect(backoff.failed('h', T, 10)).toBe(T + 2000);
    expect(() => createHostBackoff({ initialMs: 0, maxMs: 1 })).toThrow(RangeError);
  });
});

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates', () => {
    expect(retryAfterMs('120', T)).toBe(120_000);
    expect(retryAfterMs(' 0 ', T)).toBe(0);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:01:30 GMT', T)).toBe(90_000);
    expect(retryAfterMs('Wed, 31 Dec 2025 23:00:00 GMT', T)).toBe(0);
  });

  it('ignores what it cannot read', () => {
    for (const header of [null, '', '-5', '1.5', '2026-01-01', 'soon']) expect(retryAfterMs(header, T), String(header)).toBeNull();
  });
});
