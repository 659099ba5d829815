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
  /**
   * How many processes share each rule (SERVER_PROCESSES, default 1): without a shared store each
   * enforces its share of it, so together they let through what one process would.
   */
  processes?: number;
}

export interface MemoryRateLimiter extends RateLimiter {
  take(key: string, cost: number, rule: RateRule, now?: number): RateDecision;
}

export function createMemoryRateLimiter({ maxKeys = 100_000, processes = 1 }: MemoryRateLimiterOptions = {}): MemoryRateLimiter {
  const buckets = new LRUCache<string, TokenBucket>({ max: maxKeys });
  return {
    take(key, cost, fullRule, now = Date.now()) {
      const rule = processes === 1 ? fullRule : shareOf(fullRule, processes);
      const result = take(buckets.get(key) ?? fullBucket(rule, now), cost, rule, now);
      if (!result.allowed) return result;
      buckets.set(key, result.bucket);
      return { allowed: true, remaining: result.remaining };
    },
  };
}

/**
 * One process's share of a rule: the rate and the burst divided by the processes, rounded down to
 * the rule's precision (0.001/s, whole tokens) but never below it, so a share is still a rule.
 */
export function shareOf(rule: RateRule, processes: number): RateRule {
  return {
    ratePerSecond: Math.max(0.001, Math.floor(Math.round(rule.ratePerSecond * 1000) / processes) / 1000),
    burst: Math.max(1, Math.floor(rule.burst / processes)),
  };
}
