import { LRUCache } from 'lru-cache';

// A token bucket per client bucket (src/http/ip-bucket.ts) for the status endpoint, so
// polling cannot turn it into an open proxy to the network's paid RPC. Kept in process
// memory: each process limits what it asks of the node itself.

export interface PollLimit {
  /** Sustained polls per minute. */
  perMinute: number;
  /** Polls allowed at once before the rate applies. */
  burst: number;
}

export interface PollLimiter {
  /** Takes one poll for `bucket` at `nowMs`; when refused, `retryAt` is when the next one is allowed. */
  take(bucket: string, nowMs: number): { ok: true } | { ok: false; retryAt: number };
}

/** The most client buckets tracked; the least recently seen are forgotten first (they had a full bucket soon anyway). */
const MAX_TRACKED_BUCKETS = 100_000;

export function createPollLimiter(limit: PollLimit): PollLimiter {
  const perMs = limit.perMinute / 60_000;
  const buckets = new LRUCache<string, { tokens: number; at: number }>({ max: MAX_TRACKED_BUCKETS });
  return {
    take(bucket, nowMs) {
      const state = buckets.get(bucket) ?? { tokens: limit.burst, at: nowMs };
      const tokens = Math.min(limit.burst, state.tokens + (nowMs - state.at) * perMs);
      if (tokens < 1) {
        buckets.set(bucket, { tokens, at: nowMs });
        return { ok: false, retryAt: nowMs + Math.ceil((1 - tokens) / perMs) };
      }
      buckets.set(bucket, { tokens: tokens - 1, at: nowMs });
      return { ok: true };
    },
  };
}
