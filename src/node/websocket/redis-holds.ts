import { redisScript } from '../../limits/redis-script.ts';
import type { RedisClient } from '../../store/redis.ts';
import type { WebSocketHolds } from './holds.ts';

// The holds of every server process in Redis (REDIS_URL), so an app's connections and topics are
// counted over all of them. A set is a sorted set whose members are scored by when their lease
// ends; this process renews the leases of what it holds every third of a lease, so the holds of
// a process that died without releasing them end within one lease. Times are the Redis server's
// (TIME), so processes whose clocks disagree share one count.

const NOW = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)`;

// KEYS[1]: the set. ARGV: member, max, lease (ms). 1: held; 0: the set is full.
const HOLD = `${NOW}
local lease = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + lease, ARGV[1])
redis.call('PEXPIRE', KEYS[1], lease)
return 1`;

// KEYS[1]: the set. ARGV: lease (ms), then the members this process holds in it.
const RENEW = `${NOW}
local lease = tonumber(ARGV[1])
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], now + lease, ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], lease)
return 1`;

/** Three keepalive intervals (30 s): a dead process's holds are gone within 90 s. */
const DEFAULT_LEASE_MS = 90_000;

/** Sets are `<keyPrefix>ws:<set>`. */
export function createRedisWebSocketHolds(client: RedisClient, options: { leaseMs?: number; keyPrefix?: string } = {}): WebSocketHolds {
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const keyOf = (set: string) => `${options.keyPrefix ?? 'crucible:'}ws:${set}`;
  const hold = redisScript(client, HOLD);
  const renew = redisScript(client, RENEW);
  /** What this process holds, by set: renewed until released. */
  const held = new Map<string, Set<string>>();

  const renewAll = () => {
    for (const [set, members] of held) {
      // Redis unreachable: the leases run on, and the next renewal tries again.
      renew([keyOf(set)], [String(leaseMs), ...members]).catch(() => undefined);
    }
  };
  const timer = setInterval(renewAll, Math.max(1, Math.floor(leaseMs / 3))).unref();

  return {
    async hold(set, member, max) {
      const ok = (await hold([keyOf(set)], [member, String(max), String(leaseMs)])) === 1;
      if (ok) {
        let members = held.get(set);
        if (!members) held.set(set, (members = new Set()));
        members.add(member);
      }
      return ok;
    },
    async release(set, member) {
      const members = held.get(set);
      members?.delete(member);
      if (members?.size === 0) held.delete(set);
      // Not released (Redis unreachable): the lease ends it.
      await client.zRem(keyOf(set), member).catch(() => undefined);
    },
    close: () => clearInterval(timer),
  };
}
