import type { CostExceedsBurst, RateRule } from './token-bucket.ts';

// What the gateway (and later the prices API) asks of a rate limit: take `cost` tokens from the
// bucket named `key` under `rule`. Keys are logical (`app:<id>`, `demo:<network>:<ip bucket>`);
// each implementation adds its own namespace.

/** `remaining`: whole tokens left after this take. `retryAfterMs`: exactly when the cost fits (see CostExceedsBurst for a cost that never does). */
export type RateDecision = { allowed: true; remaining: number } | { allowed: false; reason: 'rate'; retryAfterMs: number } | CostExceedsBurst;

/**
 * The memory limiter answers synchronously and the Redis one with a promise: the gateway's hot
 * path skips a microtask per request when it holds the memory one, and code written against this
 * interface awaits the answer, which accepts either. `now` (ms) is for tests; the Redis limiter
 * otherwise reads the server's clock so every process agrees.
 */
export interface RateLimiter {
  take(key: string, cost: number, rule: RateRule, now?: number): RateDecision | Promise<RateDecision>;
}
