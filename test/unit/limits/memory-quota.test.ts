import { describe, expect, it } from 'vitest';
import { LimitInputError } from '../../../src/limits/input.ts';
import { createMemoryQuotaCounter } from '../../../src/limits/memory-quota.ts';
import type { QuotaDecision } from '../../../src/limits/quota.ts';

// The Redis counter is tested against a real redis-server in test/integration/limits/.

describe('createMemoryQuotaCounter', () => {
  it('reads the seed once for calls that arrive together, then counts on from it', async () => {
    const asked: string[] = [];
    let release = (_used: number) => {};
    const counter = createMemoryQuotaCounter((key, month) => {
      asked.push(`${key} ${month}`);
      return new Promise((resolve) => (release = resolve));
    });
    const calls = [1, 2, 3].map((cost) => counter.consume('app:1', cost, 1_000, '2026-01'));
    release(100);
    const counted: QuotaDecision[] = [
      { allowed: true, used: 101 },
      { allowed: true, used: 103 },
      { allowed: true, used: 106 },
    ];
    expect(await Promise.all(calls)).toEqual(counted);
    expect(await counter.consume('app:1', 4, 1_000, '2026-01')).toEqual({ allowed: true, used: 110 });
    expect(asked).toEqual(['app:1 2026-01']);
  });

  it('refuses a call that would pass the limit without counting it, and says when the month resets', async () => {
    const counter = createMemoryQuotaCounter(async () => 90);
    expect(await counter.consume('app:1', 10, 100, '2026-12')).toEqual({ allowed: true, used: 100 });
    const resetAt = new Date('2027-01-01T00:00:00.000Z');
    expect(await counter.consume('app:1', 1, 100, '2026-12')).toEqual({ allowed: false, used: 100, resetAt });
    // A smaller limit (the app's plan changed) refuses; a larger one lets the same count on.
    expect(await counter.consume('app:1', 0, 99, '2026-12')).toEqual({ allowed: false, used: 100, resetAt });
    expect(await counter.consume('app:1', 5, 105, '2026-12')).toEqual({ allowed: true, used: 105 });
  });

  it('starts a new month from its own seed, and forgets the months before it', async () => {
    const asked: string[] = [];
    const counter = createMemoryQuotaCounter(async (_key, month) => {
      asked.push(month);
      return month === '2026-01' ? 50 : 0;
    });
    expect(await counter.consume('app:1', 50, 100, '2026-01')).toEqual({ allowed: true, used: 100 });
    expect(await counter.consume('app:1', 1, 100, '2026-01')).toMatchObject({ allowed: false });
    expect(await counter.consume('app:1', 1, 100, '2026-02')).toEqual({ allowed: true, used: 1 });
    // January's count was dropped when February began: a late January call asks its seed again.
    expect(await counter.consume('app:1', 1, 100, '2026-01')).toEqual({ allowed: true, used: 51 });
    expect(asked).toEqual(['2026-01', '2026-02', '2026-01']);
  });

  it('fails the calls that waited on a failed seed, and asks it again on the next call', async () => {
    let attempts = 0;
    const counter = createMemoryQuotaCounter(async () => {
      attempts += 1;
      if (attempts === 1) throw new Error('database unavailable');
      return 7;
    });
    const waiting = [counter.consume('app:1', 1, 100, '2026-01'), counter.consume('app:1', 1, 100, '2026-01')];
    for (const call of await Promise.allSettled(waiting)) expect(call).toMatchObject({ status: 'rejected', reason: { message: 'database unavailable' } });
    expect(await counter.consume('app:1', 1, 100, '2026-01')).toEqual({ allowed: true, used: 8 });
    expect(attempts).toBe(2);
  });

  it('refuses a seed that is not a count, and bad arguments, before counting anything', async () => {
    const counter = createMemoryQuotaCounter(async (key) => (key === 'bad' ? -1 : 0));
    await expect(counter.consume('bad', 1, 100, '2026-01')).rejects.toThrow(/the seeded usage of bad in 2026-01 must be a whole number/);
    await expect(counter.consume('app:1', 1.5, 100, '2026-01')).rejects.toThrow(LimitInputError);
    await expect(counter.consume('app:1', 1, -1, '2026-01')).rejects.toThrow(LimitInputError);
    await expect(counter.consume('app:1', 1, 100, 'January')).rejects.toThrow(LimitInputError);
    expect(await counter.consume('app:1', 1, 100, '2026-01')).toEqual({ allowed: true, used: 1 });
  });
});
