import { describe, expect, it } from 'vitest';
import { createMemoryRateLimiter, shareOf } from '../../../src/limits/memory-rate-limiter.ts';

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

describe('a process’s share of a rule (SERVER_PROCESSES without Redis)', () => {
  it('divides the rate and the burst, rounded down to the rule’s precision and never below it', () => {
    expect(shareOf({ ratePerSecond: 10, burst: 20 }, 2)).toEqual({ ratePerSecond: 5, burst: 10 });
    expect(shareOf({ ratePerSecond: 1, burst: 3 }, 3)).toEqual({ ratePerSecond: 0.333, burst: 1 });
    expect(shareOf({ ratePerSecond: 4.35, burst: 7 }, 2)).toEqual({ ratePerSecond: 2.175, burst: 3 });
    expect(shareOf({ ratePerSecond: 0.001, burst: 1 }, 4)).toEqual({ ratePerSecond: 0.001, burst: 1 });
  });

  it('lets each of N processes through its share, so together they let through what one would', () => {
    const processes = [createMemoryRateLimiter({ processes: 2 }), createMemoryRateLimiter({ processes: 2 })];
    const rule = { ratePerSecond: 2, burst: 10 };
    const allowed = processes.map(
      (limiter) => Array.from({ length: 10 }, () => limiter.take('demo', 1, rule, 0)).filter((decision) => decision.allowed).length,
    );
    expect(allowed).toEqual([5, 5]);
    // Each refills at half the rate: one token a second.
    expect(processes[0]!.take('demo', 1, rule, 999)).toMatchObject({ allowed: false });
    expect(processes[0]!.take('demo', 1, rule, 1_000)).toMatchObject({ allowed: true });
    // One process alone keeps the whole rule.
    const alone = createMemoryRateLimiter();
    expect(Array.from({ length: 11 }, () => alone.take('demo', 1, rule, 0)).filter((decision) => decision.allowed)).toHaveLength(10);
  });
});
