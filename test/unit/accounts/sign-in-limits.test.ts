import { describe, expect, it } from 'vitest';
import { attemptRule, createSignInLimits, SIGN_IN_LIMITS } from '../../../src/accounts/sign-in-limits.ts';
import { createMemoryRateLimiter } from '../../../src/limits/memory-rate-limiter.ts';
import { take, fullBucket } from '../../../src/limits/token-bucket.ts';

// Sign-in limits (platform §8): 10 attempts per email and 50 per client IP per 15 minutes, as token
// buckets in whole numbers.

describe('attempt rules', () => {
  it('hold N attempts at once and give one back every W/N seconds, all N after W', () => {
    const { rule, cost } = attemptRule(SIGN_IN_LIMITS.perEmail);
    expect(SIGN_IN_LIMITS.perEmail).toEqual({ attempts: 10, windowSeconds: 900 });
    expect(SIGN_IN_LIMITS.perIp).toEqual({ attempts: 50, windowSeconds: 900 });
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
  it('refuse the 11th attempt for one email, whatever the address, and not another email', async () => {
    const limits = createSignInLimits(createMemoryRateLimiter(), { ipv6PrefixLength: 64 });
    for (let i = 0; i < 10; i++) expect(await limits.attempt('Ada@Example.com', `192.0.2.${i}`)).toEqual({ allowed: true });
    const refused = await limits.attempt(' ada@example.com ', '198.51.100.1');
    expect(refused.allowed).toBe(false);
    expect(!refused.allowed && refused.retryAfterSeconds).toBeGreaterThan(0);
    expect(!refused.allowed && refused.retryAfterSeconds).toBeLessThanOrEqual(90);
    expect(await limits.attempt('grace@example.com', '198.51.100.1')).toEqual({ allowed: true });
  });

  it('refuse the 51st attempt from one address (an IPv6 /64 counts as one) and spend no email attempt on it', async () => {
    const limits = createSignInLimits(createMemoryRateLimiter(), { ipv6PrefixLength: 64 });
    for (let i = 0; i < 50; i++) expect((await limits.attempt(`user${i}@example.com`, `2001:db8::${i.toString(16)}`)).allowed).toBe(true);
    expect((await limits.attempt('victim@example.com', '2001:db8::ffff')).allowed).toBe(false);
    // The refused attempt cost victim@ nothing: ten from elsewhere still pass.
    for (let i = 0; i < 10; i++) expect((await limits.attempt('victim@example.com', `203.0.113.${i}`)).allowed).toBe(true);
  });
});
