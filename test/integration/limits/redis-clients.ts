import { afterAll, beforeAll } from 'vitest';
import { connectRedis, type RedisClient } from '../../../src/store/redis.ts';
import { startRedis, type TestRedis } from '../../support/redis.ts';

/** A throwaway redis-server for one test file, and two clients on it as two server processes would hold (ready from beforeAll on). */
export function twoRedisClients(): { readonly first: RedisClient; readonly second: RedisClient } {
  let redis: TestRedis | undefined;
  const clients: RedisClient[] = [];
  beforeAll(async () => {
    redis = await startRedis();
    clients.push(await connectRedis(redis.url), await connectRedis(redis.url));
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await redis?.stop();
  });
  return {
    get first() {
      return clients[0]!;
    },
    get second() {
      return clients[1]!;
    },
  };
}
