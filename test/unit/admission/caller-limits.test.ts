import { describe, expect, it } from 'vitest';
import { createCallerLimits, type CallerLimits } from '../../../src/admission/caller-limits.ts';
import type { Caller, KeyedApp } from '../../../src/admission/callers.ts';
import { createMemoryQuotaCounter } from '../../../src/limits/memory-quota.ts';
import { createMemoryRateLimiter } from '../../../src/limits/memory-rate-limiter.ts';
import type { QuotaCounter } from '../../../src/limits/quota.ts';
import type { RateLimiter } from '../../../src/limits/rate-limiter.ts';

// chargeEach, which charges a notification's fan-out to many subscribers of one caller together,
// against the same number of single charges (takeRate, then countQuota) on an identical set of
// limits: the same number pass, and every bucket and quota is left the same. The limits are the
// real memory ones, on a clock that stands still so that no bucket refills during a test.

const NOW = Date.UTC(2026, 10, 27, 12);
const MONTH = '2026-11';
const NOTIFICATION_CU = 10;

function limitsPair(settings: { accountBurst: number }) {
  const make = () => {
    const limiter = createMemoryRateLimiter();
    const rateLimiter: RateLimiter = { take: (key, cost, rule) => limiter.take(key, cost, rule, NOW) };
    const quota: QuotaCounter = createMemoryQuotaCounter(async () => 0);
    const limits = createCallerLimits({
      rateLimiter,
      quota,
      now: () => NOW,
      demo: { perClient: { computeUnitsPerSecond: 5, burst: 45 }, perNetwork: { computeUnitsPerSecond: 1000, burst: 10_000 } },
      account: { computeUnitsPerSecond: 1000, burst: settings.accountBurst },
      ipv6PrefixLength: 64,
    });
    /** What is left in a bucket and a quota, read without changing them. */
    const left = async (bucket: string, rule: { ratePerSecond: number; burst: number }, quotaKey: string, perMonth: number) => {
      const probe = limiter.take(bucket, 1, rule, NOW);
      return { rate: probe.allowed ? probe.remaining + 1 : 0, quotaUsed: (await quota.consume(quotaKey, 0, perMonth, MONTH)).used };
    };
    return { limits, limiter, left };
  };
  return { batched: make(), oneByOne: make() };
}

async function chargeOneByOne(limits: CallerLimits, caller: Caller, count: number, clientIp: string | null): Promise<number> {
  let charged = 0;
  for (let i = 0; i < count; i++) {
    const refused = (await limits.takeRate(caller, 'base-sepolia', NOTIFICATION_CU, clientIp)) ?? (await limits.countQuota(caller, NOTIFICATION_CU));
    if (!refused) charged++;
  }
  return charged;
}

const appOf = (app: Partial<KeyedApp>): Caller => ({
  kind: 'app',
  app: {
    id: 'app-1',
    ownerId: 'account-1',
    state: 'active',
    allowedDomains: [],
    allowedNetworks: [],
    computeUnitsPerSecond: 100,
    monthlyComputeUnitQuota: null,
    ...app,
  },
});

describe('chargeEach', () => {
  const cases: Array<{ name: string; caller: Caller; accountBurst: number; count: number; expected: number }> = [
    // 100 CU/s: the app's bucket holds 1,000 CU, 100 notifications.
    { name: 'every one fits', caller: appOf({}), accountBurst: 100_000, count: 60, expected: 60 },
    { name: "the app's own rate holds fewer", caller: appOf({}), accountBurst: 100_000, count: 150, expected: 100 },
    {
      name: "the account's rate holds fewer (the app's bucket still pays for those it let through)",
      caller: appOf({}),
      accountBurst: 370,
      count: 80,
      expected: 37,
    },
    { name: 'the monthly quota holds fewer', caller: appOf({ monthlyComputeUnitQuota: 255 }), accountBurst: 100_000, count: 40, expected: 25 },
    { name: 'an app without an owner draws on its own rate only', caller: appOf({ ownerId: null }), accountBurst: 10, count: 30, expected: 30 },
  ];

  for (const { name, caller, accountBurst, count, expected } of cases) {
    it(`gives what single charges one after another give, and leaves the same buckets: ${name}`, async () => {
      const { batched, oneByOne } = limitsPair({ accountBurst });
      const charged = await batched.limits.chargeEach(caller, 'base-sepolia', NOTIFICATION_CU, count, null);
      expect(charged).toBe(expected);
      expect(await chargeOneByOne(oneByOne.limits, caller, count, null)).toBe(expected);
      const perMonth = caller.kind === 'app' ? (caller.app.monthlyComputeUnitQuota ?? 1e9) : 1e9;
      for (const [bucket, rule] of [
        ['app:app-1', { ratePerSecond: 100, burst: 1000 }],
        ['account:account-1', { ratePerSecond: 1000, burst: accountBurst }],
      ] as const) {
        expect(await batched.left(bucket, rule, 'app:app-1', perMonth)).toEqual(await oneByOne.left(bucket, rule, 'app:app-1', perMonth));
      }
    });
  }

  it("charges the demo key's notifications from its client's bucket as single charges would", async () => {
    const { batched, oneByOne } = limitsPair({ accountBurst: 100_000 });
    const demo: Caller = { kind: 'demo' };
    // The per-IP bucket holds 45 CU: 4 notifications.
    expect(await batched.limits.chargeEach(demo, 'base-sepolia', NOTIFICATION_CU, 9, '203.0.113.7')).toBe(4);
    expect(await chargeOneByOne(oneByOne.limits, demo, 9, '203.0.113.7')).toBe(4);
    // Another client's bucket is its own.
    expect(await batched.limits.chargeEach(demo, 'base-sepolia', NOTIFICATION_CU, 9, '203.0.113.8')).toBe(4);
  });

  it('a charge of nothing always fits', async () => {
    const { batched } = limitsPair({ accountBurst: 10 });
    expect(await batched.limits.chargeEach(appOf({ computeUnitsPerSecond: 1 }), 'base-sepolia', 0, 5, null)).toBe(5);
  });
});

describe('payerOf', () => {
  const { limits } = limitsPair({ accountBurst: 100_000 }).batched;

  it('names charges of one app on one network alike, whatever the client, and tells apart another network (metered apart) and what draws on other buckets or rules', () => {
    const payer = limits.payerOf(appOf({}), 'base-sepolia', '203.0.113.1');
    expect(limits.payerOf(appOf({}), 'base-sepolia', '198.51.100.2')).toBe(payer);
    expect(limits.payerOf(appOf({ id: 'app-2' }), 'base-sepolia', null)).not.toBe(payer);
    expect(limits.payerOf(appOf({}), 'ethereum-sepolia', null)).not.toBe(payer);
    expect(limits.payerOf(appOf({ computeUnitsPerSecond: 50 }), 'base-sepolia', null)).not.toBe(payer);
    expect(limits.payerOf(appOf({ ownerId: 'account-2' }), 'base-sepolia', null)).not.toBe(payer);
    expect(limits.payerOf(appOf({ monthlyComputeUnitQuota: 1000 }), 'base-sepolia', null)).not.toBe(payer);
  });

  it("names the demo key's charges per client bucket: IPv6 per /64", () => {
    const demo: Caller = { kind: 'demo' };
    expect(limits.payerOf(demo, 'base-sepolia', '2001:db8:0:1::1')).toBe(limits.payerOf(demo, 'base-sepolia', '2001:db8:0:1::2'));
    expect(limits.payerOf(demo, 'base-sepolia', '203.0.113.1')).not.toBe(limits.payerOf(demo, 'base-sepolia', '203.0.113.2'));
  });
});
