import { describe, expect, it } from 'vitest';
import { monthResetAt } from '../../../src/limits/month.ts';
import type { QuotaSeed } from '../../../src/limits/quota.ts';
import { createRedisQuotaCounter } from '../../../src/limits/redis-quota.ts';
import { twoRedisClients } from './redis-clients.ts';

// Monthly quotas in a real redis-server, counted by two counters on two clients as two server
// processes would. Months are given, so nothing here depends on today's date.

const redis = twoRedisClients();

/** A seed that answers `used` for every key and month, and records what it was asked. */
function recordingSeed(used: (month: string) => number): QuotaSeed & { asked: string[] } {
  const asked: string[] = [];
  return Object.assign(
    async (key: string, month: string) => {
      asked.push(`${key} ${month}`);
      return used(month);
    },
    { asked },
  );
}

describe('createRedisQuotaCounter', () => {
  it('counts one quota across two processes, and a refused call counts for neither', async () => {
    const seed = recordingSeed(() => 0);
    const [a, b] = [createRedisQuotaCounter(redis.first, seed, 'shared:'), createRedisQuotaCounter(redis.second, seed, 'shared:')];
    const decisions = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).consume('app:1', 3, 100, '2026-01')));
    // 33 calls of 3 fit in 100; the other 7 are refused and leave the count at 99.
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(33);
    const resetAt = monthResetAt('2026-01');
    for (const decision of decisions) if (!decision.allowed) expect(decision).toEqual({ allowed: false, used: 99, resetAt });
    expect(await a.consume('app:1', 1, 100, '2026-01')).toEqual({ allowed: true, used: 100 });
    expect(await b.consume('app:1', 1, 100, '2026-01')).toEqual({ allowed: false, used: 100, resetAt });
  });

  it('seeds a counter once: concurrent calls share one seed, and a second process finds the counter already there', async () => {
    const seedA = recordingSeed(() => 500);
    const seedB = recordingSeed(() => 500);
    const a = createRedisQuotaCounter(redis.first, seedA, 'seed-once:');
    const b = createRedisQuotaCounter(redis.second, seedB, 'seed-once:');
    const together = await Promise.all(Array.from({ length: 10 }, () => a.consume('app:1', 1, 1_000, '2026-01')));
    expect(together.map((decision) => decision.used).sort((x, y) => x - y)).toEqual([501, 502, 503, 504, 505, 506, 507, 508, 509, 510]);
    expect(await b.consume('app:1', 10, 1_000, '2026-01')).toEqual({ allowed: true, used: 520 });
    expect(seedA.asked).toEqual(['app:1 2026-01']);
    expect(seedB.asked).toEqual([]);
  });

  it('keeps the first seed when two processes seed at once, so none is counted twice', async () => {
    const values = [700, 900];
    const seeds = values.map((value) => recordingSeed(() => value));
    const [a, b] = seeds.map((seed, i) => createRedisQuotaCounter(i ? redis.second : redis.first, seed, 'seed-race:'));
    await Promise.all([a!.consume('app:1', 1, 10_000, '2026-01'), b!.consume('app:1', 1, 10_000, '2026-01')]);
    const used = Number(await redis.first.get('seed-race:quota:app:1:2026-01'));
    expect([702, 902]).toContain(used);
  });

  it('starts each month from its own seed in its own key, which expires a day after the month ends', async () => {
    const seed = recordingSeed((month) => (month === '2026-01' ? 90 : 0));
    const counter = createRedisQuotaCounter(redis.first, seed);
    const before = Date.now();
    expect(await counter.consume('app:1', 10, 100, '2026-01')).toEqual({ allowed: true, used: 100 });
    expect(await counter.consume('app:1', 1, 100, '2026-01')).toMatchObject({ allowed: false, used: 100 });
    expect(await counter.consume('app:1', 1, 100, '2099-12')).toEqual({ allowed: true, used: 1 });
    expect(seed.asked).toEqual(['app:1 2026-01', 'app:1 2099-12']);
    expect(await redis.first.get('crucible:quota:app:1:2026-01')).toBe('100');
    expect(await redis.first.get('crucible:quota:app:1:2099-12')).toBe('1');
    // Expiry is set from this process's clock, so only its bounds are asserted; a month already over keeps its counter a day.
    const day = 24 * 3_600_000;
    const future = await redis.first.pTTL('crucible:quota:app:1:2099-12');
    expect(future).toBeGreaterThan(monthResetAt('2099-12').getTime() - Date.now());
    expect(future).toBeLessThanOrEqual(monthResetAt('2099-12').getTime() - before + day);
    const past = await redis.first.pTTL('crucible:quota:app:1:2026-01');
    expect(past).toBeGreaterThan(0);
    expect(past).toBeLessThanOrEqual(day);
  });

  it('seeds again when the counter is gone (evicted, or expired early)', async () => {
    const seed = recordingSeed(() => 40);
    const counter = createRedisQuotaCounter(redis.first, seed, 'gone:');
    expect(await counter.consume('app:1', 1, 100, '2026-01')).toEqual({ allowed: true, used: 41 });
    await redis.first.del('gone:quota:app:1:2026-01');
    expect(await counter.consume('app:1', 1, 100, '2026-01')).toEqual({ allowed: true, used: 41 });
    expect(seed.asked).toHaveLength(2);
  });

  it('refuses bad arguments and a bad seed before writing anything', async () => {
    const counter = createRedisQuotaCounter(redis.first, async () => Number.NaN, 'bad:');
    await expect(counter.consume('app:1', -1, 100, '2026-01')).rejects.toThrow(/cost must be a whole number/);
    await expect(counter.consume('app:1', 1, 100, '2026-1')).rejects.toThrow(/month must be YYYY-MM/);
    await expect(counter.consume('app:1', 1, 100, '2026-01')).rejects.toThrow(/the seeded usage of app:1 in 2026-01/);
    expect(await redis.first.keys('bad:*')).toEqual([]);
  });
});
