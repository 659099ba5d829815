import { describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from '../../../src/limits/memory-rate-limiter.ts';
import type { RateDecision, RateLimiter } from '../../../src/limits/rate-limiter.ts';
import { createRedisRateLimiter } from '../../../src/limits/redis-rate-limiter.ts';
import { twoRedisClients } from './redis-clients.ts';

// The Redis limiter against a real redis-server: the same answers as the memory limiter (and so
// as token-bucket.ts) when given the time, one bucket shared by two clients, the script cache.

const redis = twoRedisClients();

let counter = 0;
const limiters: Record<string, () => RateLimiter> = {
  memory: () => createMemoryRateLimiter(),
  redis: () => createRedisRateLimiter(redis.first, `test-${++counter}:`),
};

const RULE = { ratePerSecond: 0.3, burst: 5 };

// [now (ms), cost, answer]: a burst, exact waits at a rate of thirds, time going back, a cost that never fits.
const STEPS: [number, number, RateDecision][] = [
  [1_000, 4, { allowed: true, remaining: 1 }],
  [1_000, 2, { allowed: false, reason: 'rate', retryAfterMs: 3_334 }],
  [4_333, 2, { allowed: false, reason: 'rate', retryAfterMs: 1 }],
  [4_334, 2, { allowed: true, remaining: 0 }],
  [2_000, 1, { allowed: false, reason: 'rate', retryAfterMs: 3_333 }],
  [4_334, 6, { allowed: false, reason: 'cost-exceeds-burst', burst: 5, retryAfterMs: 16_667 }],
  [3_600_000, 5, { allowed: true, remaining: 0 }],
  [3_600_000, 0, { allowed: true, remaining: 0 }],
];

describe.each(Object.keys(limiters))('rate limiter contract (%s)', (name) => {
  it('answers a sequence of takes exactly as the bucket arithmetic does', async () => {
    const limiter = limiters[name]!();
    for (const [now, cost, answer] of STEPS) expect(await limiter.take('app:1', cost, RULE, now), `${cost} at ${now}`).toEqual(answer);
    expect(await limiter.take('app:2', 5, RULE, 1_000)).toEqual({ allowed: true, remaining: 0 });
  });
});

describe('createRedisRateLimiter', () => {
  it('shares one bucket between two clients: together they never take more than burst + rate × elapsed on the server clock', async () => {
    const rule = { ratePerSecond: 1, burst: 10 };
    const limiters = [createRedisRateLimiter(redis.first, 'shared:'), createRedisRateLimiter(redis.second, 'shared:')];
    // Whole milliseconds, as the script reads the clock.
    const serverMs = async () => {
      const [seconds, micros] = await redis.first.time();
      return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    };
    const start = await serverMs();
    const decisions = await Promise.all(Array.from({ length: 200 }, (_, i) => limiters[i % 2]!.take('app:1', 1, rule)));
    const elapsedMs = (await serverMs()) - start;
    const allowed = decisions.filter((decision) => decision.allowed).length;
    expect(allowed).toBeGreaterThanOrEqual(rule.burst);
    expect(allowed).toBeLessThanOrEqual(rule.burst + Math.floor((rule.ratePerSecond * elapsedMs) / 1000));
    for (const decision of decisions) if (!decision.allowed) expect(decision).toMatchObject({ reason: 'rate' });
  });

  it('shares one bucket between two clients at the same given time', async () => {
    const rule = { ratePerSecond: 1, burst: 10 };
    const limiters = [createRedisRateLimiter(redis.first, 'given:'), createRedisRateLimiter(redis.second, 'given:')];
    const decisions = await Promise.all(Array.from({ length: 30 }, (_, i) => limiters[i % 2]!.take('app:1', 1, rule, 5_000)));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(10);
  });

  it('keeps buckets under crucible:limits: and lets one expire once it would be full again', async () => {
    const limiter = createRedisRateLimiter(redis.first);
    await limiter.take('demo:ethereum-sepolia:203.0.113.5', 4, { ratePerSecond: 2, burst: 10 });
    const key = 'crucible:limits:demo:ethereum-sepolia:203.0.113.5';
    expect(await redis.first.hGetAll(key)).toMatchObject({ micro_tokens: '6000000' });
    const ttl = await redis.first.pTTL(key);
    // 4 tokens at 2/s refill in 2 s; the key lives that long plus a second.
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(3_000);
  });

  it('sends the script again when the server has forgotten it', async () => {
    const limiter = createRedisRateLimiter(redis.first, 'flushed:');
    expect(await limiter.take('app:1', 1, RULE, 0)).toEqual({ allowed: true, remaining: 4 });
    await redis.first.scriptFlush();
    expect(await limiter.take('app:1', 1, RULE, 0)).toEqual({ allowed: true, remaining: 3 });
  });
});
