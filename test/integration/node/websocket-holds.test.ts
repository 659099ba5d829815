import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMemoryWebSocketHolds, type WebSocketHolds } from '../../../src/node/websocket/holds.ts';
import { createRedisWebSocketHolds } from '../../../src/node/websocket/redis-holds.ts';
import { connectRedis, type RedisClient } from '../../../src/store/redis.ts';
import { startRedis, type TestRedis } from '../../support/redis.ts';

// The counts behind the WebSocket limits per key (README "Server limits"): in this process's
// memory, or in a real Redis shared by processes, where a process that dies without releasing
// its holds loses them when their lease runs out, and a live one keeps them by renewing.

let redis: TestRedis;
const clients: RedisClient[] = [];
const stores: WebSocketHolds[] = [];

beforeAll(async () => {
  redis = await startRedis();
});

afterAll(async () => {
  for (const store of stores) store.close();
  for (const client of clients) await client.quit();
  await redis?.stop();
});

/** A store over its own Redis connection, as one process holds. */
async function redisProcess(leaseMs?: number): Promise<WebSocketHolds> {
  const client = await connectRedis(redis.url);
  clients.push(client);
  const store = createRedisWebSocketHolds(client, leaseMs === undefined ? {} : { leaseMs });
  stores.push(store);
  return store;
}

let sets = 0;
const newSet = () => `connections:app:test-${++sets}`;

describe.each([
  ['memory', async () => createMemoryWebSocketHolds()],
  ['redis', () => redisProcess()],
])('%s holds', (_engine, open) => {
  it('hold up to max members per set; a member held again stays held; a release frees a place; sets are apart', async () => {
    const holds = await open();
    const [set, other] = [newSet(), newSet()];
    expect(await holds.hold(set, 'a', 2)).toBe(true);
    expect(await holds.hold(set, 'b', 2)).toBe(true);
    expect(await holds.hold(set, 'a', 2)).toBe(true);
    expect(await holds.hold(set, 'c', 2)).toBe(false);
    expect(await holds.hold(other, 'c', 2)).toBe(true);
    await holds.release(set, 'a');
    expect(await holds.hold(set, 'c', 2)).toBe(true);
    expect(await holds.hold(set, 'a', 2)).toBe(false);
  });
});

describe('redis holds across processes', () => {
  it('count every process’s members; a dead process’s holds end with their lease, a live one’s are renewed', async () => {
    const set = newSet();
    // Short enough to wait for the dead process's holds to end; the live one renews every 2 s, so only a stall of
    // 4 s would let its holds lapse too.
    const leaseMs = 6_000;
    const [live, dead, other] = [await redisProcess(leaseMs), await redisProcess(leaseMs), await redisProcess(leaseMs)];
    expect(await live.hold(set, 'live', 2)).toBe(true);
    expect(await dead.hold(set, 'dead', 2)).toBe(true);
    expect(await other.hold(set, 'other', 2)).toBe(false);
    // The process dies: nothing released, nothing renewed.
    dead.close();
    await vi.waitFor(async () => expect(await other.hold(set, 'other', 2)).toBe(true), { timeout: 30_000, interval: 100 });
    // Held as long as the dead one's, the live process's member is still counted.
    expect(await other.hold(set, 'more', 2)).toBe(false);
  });
});
