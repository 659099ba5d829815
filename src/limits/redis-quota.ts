import { LRUCache } from 'lru-cache';
import type { RedisClient } from '../store/redis.ts';
import { checkConsume, checkSeed, type QuotaCounter, type QuotaSeed } from './quota.ts';
import { redisScript } from './redis-script.ts';

// Monthly counts shared by every server process: one integer per key and month. A missing
// counter is seeded from `seed` with SET NX, so when several processes seed at once the first
// value stands and none adds on top of another; within a process concurrent calls share one
// seed, and a process that finds the counter already there never asks its seed. The counter
// expires a day after its month ends (it is not needed after that, and a process whose clock is
// a little behind still finds it); this process's clock sets that expiry, which only collects
// garbage.
//
// KEYS[1]: the counter. ARGV: cost, limit. Returns {-1, 0} when there is no counter yet,
// {1, used after} when counted, {0, used} when refused (nothing counted).
const CONSUME = `
local used = tonumber(redis.call('GET', KEYS[1]))
if not used then return {-1, 0} end
if used + tonumber(ARGV[1]) > tonumber(ARGV[2]) then return {0, used} end
return {1, redis.call('INCRBY', KEYS[1], ARGV[1])}`;

const KEPT_AFTER_MONTH_MS = 24 * 3_600_000;

/** Counter keys are `<keyPrefix>quota:<key>:<YYYY-MM>`. */
export function createRedisQuotaCounter(client: RedisClient, seed: QuotaSeed, keyPrefix = 'crucible:'): QuotaCounter {
  const run = redisScript(client, CONSUME);
  // The seed of each counter this process wrote, kept once done: a call that found no counter
  // while the seed was being written waits for it instead of reading the seed again.
  const seeded = new LRUCache<string, Promise<void>>({ max: 100_000 });

  function seedCounter(counterKey: string, key: string, month: string, resetAt: Date): Promise<void> {
    const seeding = (async () => {
      const used = checkSeed(key, month, await seed(key, month));
      // At least a day from now too: a month already over (a late call, a test) still gets its counter.
      const ttl = Math.max(resetAt.getTime() - Date.now(), 0) + KEPT_AFTER_MONTH_MS;
      await client.set(counterKey, String(used), { condition: 'NX', expiration: { type: 'PX', value: ttl } });
    })().catch((error: unknown) => {
      if (seeded.get(counterKey) === seeding) seeded.delete(counterKey);
      throw error;
    });
    seeded.set(counterKey, seeding);
    return seeding;
  }

  return {
    async consume(key, cost, limit, month) {
      const resetAt = checkConsume(cost, limit, month);
      const counterKey = `${keyPrefix}quota:${key}:${month}`;
      const consume = async () => (await run([counterKey], [String(cost), String(limit)])) as [number, number];
      let [outcome, used] = await consume();
      // No counter: wait for this process's seed of it, or seed it (again, if it has gone since: evicted, or expired early).
      for (let attempt = 0; outcome === -1; attempt++) {
        if (attempt === 2) throw new Error(`the quota counter ${counterKey} vanished as soon as it was seeded`);
        await ((attempt === 0 && seeded.get(counterKey)) || seedCounter(counterKey, key, month, resetAt));
        [outcome, used] = await consume();
      }
      if (outcome === 1) return { allowed: true, used };
      return { allowed: false, used, resetAt };
    },
  };
}
