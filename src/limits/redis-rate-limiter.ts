import type { RedisClient } from '../store/redis.ts';
import type { RateDecision, RateLimiter } from './rate-limiter.ts';
import { redisScript } from './redis-script.ts';
import { checkTake, MICRO_TOKENS_PER_TOKEN, type RateRule } from './token-bucket.ts';

// Buckets shared by every server process (REDIS_URL). One script reads the bucket, refills it,
// takes and writes back atomically, on the Redis server's clock (TIME), so processes whose
// clocks disagree still share one bucket. The arithmetic is token-bucket.ts's, line for line,
// in the same whole micro-tokens (exact in Lua's doubles too).
//
// KEYS[1]: a hash {micro_tokens, updated_at (ms)}. ARGV: cost and capacity (micro-tokens),
// micro-tokens per ms, now (ms; empty = the server's clock). Returns {1, micro-tokens left} or
// {0, ms until the cost fits}. The key expires once the bucket would be full again (plus a
// second): a missing bucket is a full one, so expiry changes no answer.
const TAKE = `
local cost, capacity, per_ms = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local now = tonumber(ARGV[4])
if not now then
  local time = redis.call('TIME')
  now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
local state = redis.call('HMGET', KEYS[1], 'micro_tokens', 'updated_at')
local tokens, updated = tonumber(state[1]), tonumber(state[2])
if not tokens or not updated then tokens, updated = capacity, now end
if tokens > capacity then tokens = capacity end
if now < updated then now = updated end
if now - updated >= math.ceil((capacity - tokens) / per_ms) then tokens = capacity else tokens = tokens + (now - updated) * per_ms end
if tokens < cost then return {0, math.ceil((cost - tokens) / per_ms)} end
tokens = tokens - cost
redis.call('HSET', KEYS[1], 'micro_tokens', string.format('%.0f', tokens), 'updated_at', string.format('%.0f', now))
redis.call('PEXPIRE', KEYS[1], math.ceil((capacity - tokens) / per_ms) + 1000)
return {1, tokens}`;

export interface RedisRateLimiter extends RateLimiter {
  take(key: string, cost: number, rule: RateRule, now?: number): Promise<RateDecision>;
}

/** Bucket keys are `<keyPrefix>limits:<key>`. */
export function createRedisRateLimiter(client: RedisClient, keyPrefix = 'crucible:'): RedisRateLimiter {
  const run = redisScript(client, TAKE);
  return {
    async take(key, cost, rule, now) {
      const { perMs, tooLarge } = checkTake(cost, rule, now);
      if (tooLarge) return tooLarge;
      const [allowed, value] = (await run(
        [`${keyPrefix}limits:${key}`],
        [String(cost * MICRO_TOKENS_PER_TOKEN), String(rule.burst * MICRO_TOKENS_PER_TOKEN), String(perMs), now === undefined ? '' : String(Math.floor(now))],
      )) as [number, number];
      if (allowed === 1) return { allowed: true, remaining: Math.floor(value / MICRO_TOKENS_PER_TOKEN) };
      return { allowed: false, reason: 'rate', retryAfterMs: value };
    },
  };
}
