import { checkWholeNumber } from './input.ts';
import { monthResetAt } from './month.ts';

// Monthly compute-unit quotas (docs/keys-and-limits.md#monthly-quotas). A refused call does not count: it used no
// upstream work, and a client over its quota would otherwise push its own count further up with
// every retry. Counting and checking are one step, so two calls cannot both pass on the last CUs.

export type QuotaDecision = { allowed: true; used: number } | { allowed: false; used: number; resetAt: Date };

export interface QuotaCounter {
  /**
   * Adds `cost` to `key`'s count for `month` (`YYYY-MM`, UTC) if that keeps it within `limit`; `used` is the count after.
   * The memory counter answers at once once it holds the key's count, the Redis one with a promise (as RateLimiter.take);
   * bad arguments reject.
   */
  consume(key: string, cost: number, limit: number, month: string): QuotaDecision | Promise<QuotaDecision>;
}

/** Units already used by `key` in `month` when this process first needs its count: the gateway reads the database's recorded usage. */
export type QuotaSeed = (key: string, month: string) => Promise<number>;

/** Checks a consume's arguments (LimitInputError) and returns when `month`'s quota resets. */
export function checkConsume(cost: number, limit: number, month: string): Date {
  checkWholeNumber('cost', cost, 0);
  checkWholeNumber('limit', limit, 0, Number.MAX_SAFE_INTEGER);
  return monthResetAt(month);
}

/** What a seed callback answered, refused if it is not a count. */
export function checkSeed(key: string, month: string, used: number): number {
  checkWholeNumber(`the seeded usage of ${key} in ${month}`, used, 0, Number.MAX_SAFE_INTEGER);
  return used;
}
