import { LRUCache } from 'lru-cache';
import type { RateDecision, RateLimiter } from './rate-limiter.ts';
import { fullBucket, type RateRule, type TokenBucket, take } from './token-bucket.ts';

// Buckets in this process's memory (the default: one server process). The cache is bounded,
// so a client rotating addresses cannot grow it without limit; the least recently used bucket
// is forgotten first and starts full when next seen, which gives that key one burst back: the
// price of bounded memory, paid only by keys idle longer than `maxKeys` others were used.

export interface MemoryRateLimiterOptions {
  /** The most buckets held at once. */
  maxKeys?: number;
}

export interface MemoryRateLimiter extends RateLimiter {
  take(key: string, cost: number, rule: RateRule, now?: number): RateDecision;
}

export function createMemoryRateLimiter({ maxKeys = 100_000 }: MemoryRateLimiterOptions = {}): MemoryRateLimiter {
  const buckets = new LRUCache<string, TokenBucket>({ max: maxKeys });
  return {
    take(key, cost, rule, now = Date.now()) {
      const result = take(buckets.get(key) ?? fullBucket(rule, now), cost, rule, now);
      if (!result.allowed) return result;
      buckets.set(key, result.bucket);
      return { allowed: true, remaining: result.remaining };
    },
  };
}
