import { describe, expect, it } from 'vitest';
import { LimitInputError } from '../../../src/limits/input.ts';
import { retryAfterSeconds } from '../../../src/limits/retry-after.ts';
import { fullBucket, MICRO_TOKENS_PER_TOKEN, microTokensPerMs, type RateRule, type TokenBucket, take } from '../../../src/limits/token-bucket.ts';

const RULE: RateRule = { ratePerSecond: 10, burst: 20 };

/** Takes and returns the new bucket, failing the test if the take was refused. */
function allowed(bucket: TokenBucket, cost: number, rule: RateRule, now: number): TokenBucket {
  const result = take(bucket, cost, rule, now);
  if (!result.allowed) throw new Error(`refused: ${JSON.stringify(result)}`);
  return result.bucket;
}

describe('take', () => {
  it('starts full, takes the whole burst, then says exactly when the next token is there', () => {
    const result = take(fullBucket(RULE, 0), 20, RULE, 0);
    expect(result).toEqual({ allowed: true, bucket: { microTokens: 0, updatedAt: 0 }, remaining: 0 });
    if (!result.allowed) return;
    expect(take(result.bucket, 1, RULE, 0)).toEqual({ allowed: false, reason: 'rate', retryAfterMs: 100 });
    expect(take(result.bucket, 3, RULE, 0)).toEqual({ allowed: false, reason: 'rate', retryAfterMs: 300 });
  });

  it('refills at the rate, counting part tokens, and reports whole tokens left', () => {
    let bucket = allowed(fullBucket(RULE, 0), 20, RULE, 0);
    // 250 ms at 10/s is 2.5 tokens: 2 fit, and the half left is kept.
    const result = take(bucket, 2, RULE, 250);
    expect(result).toEqual({ allowed: true, bucket: { microTokens: MICRO_TOKENS_PER_TOKEN / 2, updatedAt: 250 }, remaining: 0 });
    bucket = allowed(bucket, 2, RULE, 250);
    expect(take(bucket, 1, RULE, 250)).toEqual({ allowed: false, reason: 'rate', retryAfterMs: 50 });
    expect(take(bucket, 1, RULE, 300)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('never holds more than the burst, however long the bucket was idle', () => {
    const drained = allowed(fullBucket(RULE, 0), 20, RULE, 0);
    const later = 365 * 24 * 3_600_000;
    expect(take(drained, 20, RULE, later)).toMatchObject({ allowed: true, remaining: 0 });
    expect(take(drained, 5, RULE, later)).toMatchObject({ allowed: true, remaining: 15 });
    // A bucket written under a larger burst is held to the current one.
    const big = fullBucket({ ratePerSecond: 10, burst: 100 }, 0);
    expect(take(big, 0, RULE, 0)).toMatchObject({ allowed: true, remaining: 20 });
  });

  it('refuses a cost larger than the burst as one that can never fit', () => {
    expect(take(fullBucket(RULE, 0), 21, RULE, 0)).toEqual({ allowed: false, reason: 'cost-exceeds-burst', burst: 20, retryAfterMs: 2_000 });
    expect(take(fullBucket(RULE, 0), 20, RULE, 0).allowed).toBe(true);
  });

  it('treats time going backwards as no time passed', () => {
    const drained = allowed(fullBucket(RULE, 1_000), 20, RULE, 1_000);
    expect(take(drained, 1, RULE, 500)).toEqual({ allowed: false, reason: 'rate', retryAfterMs: 100 });
    // A take at the earlier time does not move the bucket back, so the time after it is not counted twice.
    const after = allowed(drained, 0, RULE, 500);
    expect(after).toEqual({ microTokens: 0, updatedAt: 1_000 });
    expect(take(after, 1, RULE, 1_099)).toMatchObject({ allowed: false, retryAfterMs: 1 });
    expect(take(after, 1, RULE, 1_100)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('gives a wait after which the cost fits and one millisecond before which it does not, at a rate of thirds', () => {
    const rule = { ratePerSecond: 0.3, burst: 5 };
    const drained = allowed(fullBucket(rule, 0), 5, rule, 0);
    for (const cost of [1, 2, 5]) {
      const refused = take(drained, cost, rule, 0);
      if (refused.allowed || refused.reason !== 'rate') throw new Error('expected a rate refusal');
      expect(refused.retryAfterMs).toBe(Math.ceil((cost * 1_000_000) / 300));
      expect(take(drained, cost, rule, refused.retryAfterMs).allowed).toBe(true);
      expect(take(drained, cost, rule, refused.retryAfterMs - 1).allowed).toBe(false);
    }
  });

  it('does not drift when touched every millisecond', () => {
    const rule = { ratePerSecond: 0.3, burst: 5 };
    let bucket = allowed(fullBucket(rule, 0), 5, rule, 0);
    for (let now = 1; now <= 10_000; now++) bucket = allowed(bucket, 0, rule, now);
    // 0.3 tokens/s for 10 s is exactly 3 tokens.
    expect(bucket).toEqual({ microTokens: 3 * MICRO_TOKENS_PER_TOKEN, updatedAt: 10_000 });
  });

  it('refuses rules, costs and times it cannot count exactly, naming the value', () => {
    const bucket = fullBucket(RULE, 0);
    for (const rule of [
      { ratePerSecond: 0, burst: 1 },
      { ratePerSecond: -1, burst: 1 },
      { ratePerSecond: 0.0001, burst: 1 },
      { ratePerSecond: Number.NaN, burst: 1 },
      { ratePerSecond: 2e9, burst: 1 },
      { ratePerSecond: 1, burst: 0 },
      { ratePerSecond: 1, burst: 1.5 },
      { ratePerSecond: 1, burst: 2e9 },
    ]) {
      expect(() => take(bucket, 1, rule, 0), JSON.stringify(rule)).toThrow(LimitInputError);
    }
    expect(() => take(bucket, -1, RULE, 0)).toThrow(/cost must be a whole number from 0 to 1000000000, not -1/);
    expect(() => take(bucket, 1.5, RULE, 0)).toThrow(LimitInputError);
    expect(() => take(bucket, 1, RULE, Number.NaN)).toThrow(/now must be a time/);
    expect(microTokensPerMs({ ratePerSecond: 0.007, burst: 1 })).toBe(7);
  });
});

describe('retryAfterSeconds', () => {
  it('rounds up to whole seconds and never says 0', () => {
    expect([0, 1, 999, 1_000, 1_001, 59_500].map(retryAfterSeconds)).toEqual([1, 1, 1, 1, 2, 60]);
  });
});
