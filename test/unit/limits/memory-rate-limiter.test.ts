import { describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from '../../../src/limits/memory-rate-limiter.ts';

const RULE = { ratePerSecond: 1, burst: 3 };

describe('createMemoryRateLimiter', () => {
  it('answers synchronously, one bucket per key', () => {
    const limiter = createMemoryRateLimiter();
    const first = limiter.take('app:1', 3, RULE, 0);
    expect(first).toEqual({ allowed: true, remaining: 0 });
    expect(limiter.take('app:1', 1, RULE, 0)).toEqual({ allowed: false, reason: 'rate', retryAfterMs: 1_000 });
    expect(limiter.take('app:2', 1, RULE, 0)).toEqual({ allowed: true, remaining: 2 });
    expect(limiter.take('app:1', 1, RULE, 1_000)).toEqual({ allowed: true, remaining: 0 });
  });

  it('leaves a bucket as it was when a take is refused', () => {
    const limiter = createMemoryRateLimiter();
    limiter.take('k', 2, RULE, 0);
    expect(limiter.take('k', 2, RULE, 0)).toMatchObject({ allowed: false, retryAfterMs: 1_000 });
    expect(limiter.take('k', 4, RULE, 0)).toMatchObject({ allowed: false, reason: 'cost-exceeds-burst' });
    expect(limiter.take('k', 1, RULE, 0)).toEqual({ allowed: true, remaining: 0 });
  });

  it('holds at most maxKeys buckets: the least recently used is forgotten and starts full', () => {
    const limiter = createMemoryRateLimiter({ maxKeys: 2 });
    for (const key of ['a', 'b']) limiter.take(key, 3, RULE, 0);
    limiter.take('a', 1, RULE, 0); // refused, but 'a' is now the more recent
    limiter.take('c', 3, RULE, 0); // a third key pushes out 'b'
    expect(limiter.take('a', 1, RULE, 0)).toMatchObject({ allowed: false });
    expect(limiter.take('c', 1, RULE, 0)).toMatchObject({ allowed: false });
    expect(limiter.take('b', 1, RULE, 0)).toEqual({ allowed: true, remaining: 2 });
  });
});
