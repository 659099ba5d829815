import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import type { Hex } from 'viem';
import { ReservationLostError, type CaptchaTokenStore, type LimitStore, type UnsettledReservation } from './types.ts';

// Limits and CAPTCHA tokens in Redis, shared by every server process (REDIS_URL). Each
// operation is one Lua script (or one SET NX), so it is atomic across processes. Expiry
// times are the faucet's clock, stored in the values; Redis TTLs only collect garbage.
// The drip ledger is not here: it stays in each process's SQLite file (see README.md).

const newClient = (url: string) => createClient({ url });
export type RedisClient = ReturnType<typeof newClient>;

export async function connectRedis(url: string): Promise<RedisClient> {
  const client = newClient(url);
  // Without a listener a lost connection would throw from an event emitter; commands reject instead.
  client.on('error', (error: Error) => console.error(JSON.stringify({ level: 'error', component: 'redis', message: error.message })));
  await client.connect();
  return client;
}

// Value of an address key: "<reservation id>|<reserved|confirmed>|<expires at, ms>|<reserved at, ms>|<tx hash or empty>".
// Unsettled reservations are also members ("<network>|<address>") of one sorted set scored by
// when they were made, so any process can find what a crashed one left.
const RESERVE = `
local current = redis.call('GET', KEYS[1])
if current then
  local expires = tonumber(string.match(current, '^[^|]*|[^|]*|(%d+)'))
  if expires > tonumber(ARGV[2]) then return current end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[4])
return false`;

/** ARGV[1] is "<id>|reserved|": only the holder's unconfirmed reservation takes the hash. */
const RECORD_BROADCAST = `
local current = redis.call('GET', KEYS[1])
if current and string.sub(current, 1, string.len(ARGV[1])) == ARGV[1] then
  local updated = string.gsub(current, '|[^|]*$', '|' .. ARGV[2])
  redis.call('SET', KEYS[1], updated, 'KEEPTTL')
  return 1
end
return 0`;

const CONFIRM = `
local current = redis.call('GET', KEYS[1])
if current and string.sub(current, 1, string.len(ARGV[1])) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  redis.call('ZREM', KEYS[2], ARGV[4])
  return 1
end
return 0`;

const RELEASE = `
local current = redis.call('GET', KEYS[1])
if current and string.sub(current, 1, string.len(ARGV[1])) == ARGV[1] then
  redis.call('ZREM', KEYS[2], ARGV[2])
  return redis.call('DEL', KEYS[1])
end
return 0`;

// A fixed window per IP and network: {taken (1|0), window start}.
const TAKE_IP = `
local now, window, max = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local start = tonumber(redis.call('HGET', KEYS[1], 'start'))
if not start or start + window <= now then
  redis.call('HSET', KEYS[1], 'start', ARGV[1], 'count', 1)
  redis.call('PEXPIRE', KEYS[1], window)
  return {1, ARGV[1]}
end
if tonumber(redis.call('HGET', KEYS[1], 'count')) >= max then return {0, tostring(start)} end
redis.call('HINCRBY', KEYS[1], 'count', 1)
return {1, tostring(start)}`;

const RETURN_IP = `
if redis.call('HGET', KEYS[1], 'start') == ARGV[1] and tonumber(redis.call('HGET', KEYS[1], 'count')) > 0 then
  redis.call('HINCRBY', KEYS[1], 'count', -1)
end
return 0`;

export function createRedisLimitStore(client: RedisClient, keyPrefix = 'crucible:'): LimitStore & CaptchaTokenStore {
  const addressKey = (networkId: string, address: string) => `${keyPrefix}faucet:address:${networkId}:${address.toLowerCase()}`;
  const unsettledKey = `${keyPrefix}faucet:unsettled`;
  const member = (networkId: string, address: string) => `${networkId}|${address.toLowerCase()}`;
  const ipKey = (networkId: string, ipHash: string) => `${keyPrefix}faucet:ip:${networkId}:${ipHash}`;
  const tokenKey = (tokenHash: string) => `${keyPrefix}faucet:captcha:${tokenHash}`;
  const value = (id: string, state: 'reserved' | 'confirmed', expiresAt: number, reservedAt: number) => `${id}|${state}|${expiresAt}|${reservedAt}|`;

  return {
    async reserveAddress({ networkId, address, windowMs, now }) {
      const id = randomUUID();
      const expiresAt = now.getTime() + windowMs;
      const current = (await client.eval(RESERVE, {
        keys: [addressKey(networkId, address), unsettledKey],
        arguments: [value(id, 'reserved', expiresAt, now.getTime()), String(now.getTime()), String(windowMs), member(networkId, address)],
      })) as string | null;
      if (current === null) return { ok: true, reservation: { networkId, address: address.toLowerCase(), id, windowMs } };
      return { ok: false, resetAt: new Date(Number(current.split('|')[2])) };
    },
    async recordBroadcast(reservation, txHash) {
      const recorded = await client.eval(RECORD_BROADCAST, {
        keys: [addressKey(reservation.networkId, reservation.address)],
        arguments: [`${reservation.id}|reserved|`, txHash],
      });
      if (recorded !== 1) throw new ReservationLostError(reservation);
    },
    async confirmAddress(reservation, now) {
      const expiresAt = now.getTime() + reservation.windowMs;
      await client.eval(CONFIRM, {
        keys: [addressKey(reservation.networkId, reservation.address), unsettledKey],
        arguments: [
          `${reservation.id}|`,
          value(reservation.id, 'confirmed', expiresAt, now.getTime()),
          String(reservation.windowMs),
          member(reservation.networkId, reservation.address),
        ],
      });
    },
    async releaseAddress(reservation) {
      // Only a reservation that is still ours and not yet confirmed.
      await client.eval(RELEASE, {
        keys: [addressKey(reservation.networkId, reservation.address), unsettledKey],
        arguments: [`${reservation.id}|reserved|`, member(reservation.networkId, reservation.address)],
      });
    },
    async unsettledReservations(reservedBefore) {
      const members = await client.zRangeByScore(unsettledKey, '-inf', reservedBefore.getTime());
      const found: UnsettledReservation[] = [];
      for (const entry of members) {
        const [networkId = '', address = ''] = entry.split('|');
        const current = await client.get(addressKey(networkId, address));
        const [id = '', state, expiresAt, reservedAt, txHash] = current?.split('|') ?? [];
        if (state !== 'reserved') {
          // Lapsed, or settled by an older writer: nothing left to settle.
          await client.zRem(unsettledKey, entry);
          continue;
        }
        found.push({
          reservation: { networkId, address, id, windowMs: Number(expiresAt) - Number(reservedAt) },
          reservedAt: new Date(Number(reservedAt)),
          txHash: txHash ? (txHash as Hex) : null,
        });
      }
      return found;
    },
    async takeIpSlot({ networkId, ipHash, max, windowMs, now }) {
      const [taken, start] = (await client.eval(TAKE_IP, {
        keys: [ipKey(networkId, ipHash)],
        arguments: [String(now.getTime()), String(windowMs), String(max)],
      })) as [number, string];
      const windowStart = Number(start);
      return taken === 1 ? { ok: true, slot: { networkId, ipHash, windowStart } } : { ok: false, resetAt: new Date(windowStart + windowMs) };
    },
    async returnIpSlot(slot) {
      await client.eval(RETURN_IP, { keys: [ipKey(slot.networkId, slot.ipHash)], arguments: [String(slot.windowStart)] });
    },
    async isCaptchaTokenUsed(tokenHash) {
      // The key's TTL is the token's lifetime: present means claimed and unexpired.
      return (await client.exists(tokenKey(tokenHash))) === 1;
    },
    async claimCaptchaToken(tokenHash, expiresAt, now) {
      const ttl = Math.max(1, expiresAt.getTime() - now.getTime());
      const set = await client.set(tokenKey(tokenHash), '1', { condition: 'NX', expiration: { type: 'PX', value: ttl } });
      return set === 'OK';
    },
  };
}
