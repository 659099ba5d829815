import { checkWholeNumber, LimitInputError, MAX_AMOUNT } from './input.ts';

// Token-bucket arithmetic (docs/keys-and-limits.md#rate-buckets: compute units per second, with a burst), pure so
// that the memory limiter, the Redis script and the tests agree on every number.
//
// Precision: a bucket holds a whole number of micro-tokens (millionths of a token) and time is
// whole milliseconds. A rate is a multiple of 0.001 tokens/s, so it refills a whole number of
// micro-tokens every millisecond (`ratePerSecond × 1000`), and every sum, product and division
// stays an integer below 2^53: exact in a JavaScript number and in Redis's Lua (doubles too).
// Nothing is rounded while refilling, so a bucket never drifts however often it is touched.

export interface RateRule {
  /** Sustained tokens per second: a positive multiple of 0.001, at most MAX_AMOUNT. */
  ratePerSecond: number;
  /** The most tokens a bucket holds, so the most one burst (or one request) may take: a whole number from 1 to MAX_AMOUNT. */
  burst: number;
}

export interface TokenBucket {
  /** Millionths of a token, a whole number (see above). */
  microTokens: number;
  /** Milliseconds since the epoch at which `microTokens` was true. */
  updatedAt: number;
}

export const MICRO_TOKENS_PER_TOKEN = 1_000_000;

export type TakeResult =
  | { allowed: true; bucket: TokenBucket; remaining: number }
  | { allowed: false; reason: 'rate'; retryAfterMs: number }
  | CostExceedsBurst;

/**
 * A cost larger than the burst never fits, however long the caller waits: the answer is a 429
 * that says the request is too large for the limit (`burst` is that limit). `retryAfterMs` is
 * the time an empty bucket takes to fill, only so that Retry-After has a value.
 */
export interface CostExceedsBurst {
  allowed: false;
  reason: 'cost-exceeds-burst';
  retryAfterMs: number;
  burst: number;
}

/** Micro-tokens the rule adds per millisecond (a whole number); throws LimitInputError for a rule outside RateRule's bounds, so configuration can check a rule at start-up. */
export function microTokensPerMs(rule: RateRule): number {
  const perMs = Math.round(rule.ratePerSecond * 1000);
  if (!(rule.ratePerSecond > 0) || rule.ratePerSecond > MAX_AMOUNT || Math.abs(rule.ratePerSecond * 1000 - perMs) > 1e-6) {
    throw new LimitInputError(`ratePerSecond must be a positive multiple of 0.001 up to ${MAX_AMOUNT}, not ${rule.ratePerSecond}`);
  }
  checkWholeNumber('burst', rule.burst, 1);
  return perMs;
}

/** A bucket never seen before (or forgotten) starts full. */
export function fullBucket(rule: RateRule, now: number): TokenBucket {
  return { microTokens: rule.burst * MICRO_TOKENS_PER_TOKEN, updatedAt: Math.floor(now) };
}

/**
 * Takes `cost` tokens from `bucket` at `now` (ms). Allowed: the bucket's new state and the whole
 * tokens left. Refused: nothing changes, and `retryAfterMs` is exactly when `cost` tokens are
 * there. A `now` before the bucket's last update counts as no time passed (clocks step back).
 */
export function take(bucket: TokenBucket, cost: number, rule: RateRule, now: number): TakeResult {
  const { perMs, tooLarge } = checkTake(cost, rule, now);
  if (tooLarge) return tooLarge;
  const capacity = rule.burst * MICRO_TOKENS_PER_TOKEN;
  const at = Math.max(Math.floor(now), bucket.updatedAt);
  const available = refilled(Math.min(bucket.microTokens, capacity), capacity, perMs, at - bucket.updatedAt);
  const needed = cost * MICRO_TOKENS_PER_TOKEN;
  if (available < needed) return { allowed: false, reason: 'rate', retryAfterMs: Math.ceil((needed - available) / perMs) };
  const left = available - needed;
  return { allowed: true, bucket: { microTokens: left, updatedAt: at }, remaining: Math.floor(left / MICRO_TOKENS_PER_TOKEN) };
}

/** Checks a take's arguments (LimitInputError when out of bounds); `tooLarge` is the answer when the cost can never fit. */
export function checkTake(cost: number, rule: RateRule, now: number | undefined): { perMs: number; tooLarge: CostExceedsBurst | null } {
  const perMs = microTokensPerMs(rule);
  checkWholeNumber('cost', cost, 0);
  if (now !== undefined && !Number.isFinite(now)) throw new LimitInputError(`now must be a time in milliseconds, not ${now}`);
  if (cost <= rule.burst) return { perMs, tooLarge: null };
  const retryAfterMs = Math.ceil((rule.burst * MICRO_TOKENS_PER_TOKEN) / perMs);
  return { perMs, tooLarge: { allowed: false, reason: 'cost-exceeds-burst', retryAfterMs, burst: rule.burst } };
}

function refilled(microTokens: number, capacity: number, perMs: number, elapsedMs: number): number {
  // Compared before multiplying: after a long idle time elapsed × rate could pass 2^53.
  // (A ceiling of integers below 2^53 is exact: a non-integer quotient is never within rounding of an integer.)
  if (elapsedMs >= Math.ceil((capacity - microTokens) / perMs)) return capacity;
  return microTokens + elapsedMs * perMs;
}
