import { describe, expect, it } from 'vitest';
import { attemptRule, createAttemptLimits } from '../../../src/accounts/attempt-limits.ts';
import { readDashboardConfig } from '../../../src/config/dashboard.ts';
import { createMemoryRateLimiter } from '../../../src/limits/memory-rate-limiter.ts';
import { take, fullBucket } from '../../../src/limits/token-bucket.ts';

// Sign-in and sign-up limits (docs/dashboard.md#sign-in-limits) with their defaults (src/config/dashboard.ts): 10
// sign-ins per email and client IP and 50 per client IP per 15 minutes, 10 sign-ups per client IP
// per hour, as token buckets in whole numbers.

const limitsOf = () => createAttemptLimits(createMemoryRateLimiter(), { ...readDashboardConfig({}), ipv6PrefixLength: 64 });

describe('attempt rules', () => {
  it('hold N attempts at once and give one back every W/N seconds, all N after W', () => {
    const { rule, cost } = attemptRule({ attempts: 10, windowSeconds: 900 });
    let bucket = fullBucket(rule, 0);
    for (let i = 0; i < 10; i++) {
      const result = take(bucket, cost, rule, 0);
      if (!result.allowed) throw new Error(`attempt ${i + 1} refused`);
      bucket = result.bucket;
    }
    expect(take(bucket, cost, rule, 0)).toEqual({ allowed: false, reason: 'rate', retryAfterMs: 90_000 });
    expect(take(bucket, cost, rule, 90_000).allowed).toBe(true);
    const refilled = take(bucket, cost * 10, rule, 900_000);
    expect(refilled.allowed).toBe(true);
  });
});

describe('sign-in limits over the memory limiter', () => {
  it('refuse the 11th attempt at one email from one address, and not from another address, nor another email', async () => {
    const limits = limitsOf();
    for (let i = 0; i < 10; i++) expect(await limits.signIn('Ada@Example.com', '192.0.2.1')).toEqual({ allowed: true });
    const refused = await limits.signIn(' ada@example.com ', '192.0.2.1');
    expect(refused.allowed).toBe(false);
    expect(!refused.allowed && refused.retryAfterSeconds).toBeGreaterThan(0);
    expect(!refused.allowed && refused.retryAfterSeconds).toBeLessThanOrEqual(90);
    // The owner, elsewhere, is not locked out by them.
    expect(await limits.signIn('ada@example.com', '198.51.100.1')).toEqual({ allowed: true });
    expect(await limits.signIn('grace@example.com', '192.0.2.1')).toEqual({ allowed: true });
  });

  it('count an IPv6 /64 as one address for an email', async () => {
    const limits = limitsOf();
    for (let i = 0; i < 10; i++) expect((await limits.signIn('ada@example.com', `2001:db8::${i.toString(16)}`)).allowed).toBe(true);
    expect((await limits.signIn('ada@example.com', '2001:db8::ffff')).allowed).toBe(false);
    expect((await limits.signIn('ada@example.com', '2001:db8:0:1::1')).allowed).toBe(true);
  });

  it('refuse the 51st attempt from one address (an IPv6 /64 counts as one), whatever the email, and spend no email attempt on it', async () => {
    const limits = limitsOf();
    for (let i = 0; i < 50; i++) expect((await limits.signIn(`user${i}@example.com`, `2001:db8::${i.toString(16)}`)).allowed).toBe(true);
    expect((await limits.signIn('victim@example.com', '2001:db8::ffff')).allowed).toBe(false);
    // The refused attempt cost victim@ nothing at another address: ten from there still pass.
    for (let i = 0; i < 10; i++) expect((await limits.signIn('victim@example.com', '203.0.113.1')).allowed).toBe(true);
  });
});

describe('sign-up limits over the memory limiter', () => {
  it('refuse the 11th sign-up from one address within the hour, not one from another address, and count apart from sign-ins', async () => {
    const limits = limitsOf();
    const started = Date.now();
    for (let i = 0; i < 10; i++) expect(await limits.signUp('192.0.2.1')).toEqual({ allowed: true });
    const refused = await limits.signUp('192.0.2.1');
    const elapsedSeconds = Math.ceil((Date.now() - started) / 1000);
    expect(refused.allowed).toBe(false);
    // One comes back every 6 minutes, counted from the first sign-up (less what the calls took, on the wall clock).
    expect(!refused.allowed && refused.retryAfterSeconds).toBeLessThanOrEqual(360);
    expect(!refused.allowed && refused.retryAfterSeconds).toBeGreaterThanOrEqual(360 - elapsedSeconds);
    expect(await limits.signUp('192.0.2.2')).toEqual({ allowed: true });
    expect(await limits.signIn('ada@example.com', '192.0.2.1')).toEqual({ allowed: true });
  });
});
