import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSignInLimits } from '../../../src/accounts/sign-in-limits.ts';
import { createRedisRateLimiter } from '../../../src/limits/redis-rate-limiter.ts';
import { connectRedis, type RedisClient } from '../../../src/store/redis.ts';
import { startRedis, type TestRedis } from '../../support/redis.ts';

// With REDIS_URL every server process counts sign-in attempts in the same buckets (platform §8): two
// limiters over two connections to a real redis-server stand for two processes.

let redis: TestRedis;
const clients: RedisClient[] = [];

beforeAll(async () => {
  redis = await startRedis();
  for (let i = 0; i < 2; i++) clients.push(await connectRedis(redis.url));
});

afterAll(async () => {
  for (const client of clients) await client.quit();
  await redis?.stop();
});

it('counts the attempts of every process against one email, and keeps no email in Redis', async () => {
  const [first, second] = clients.map((client) => createSignInLimits(createRedisRateLimiter(client), { ipv6PrefixLength: 64 }));
  for (let i = 0; i < 10; i++)
    expect(await (i % 2 ? first! : second!).attempt('Ada@Example.com', `192.0.2.${i}`), `attempt ${i + 1}`).toEqual({ allowed: true });
  const refused = await first!.attempt('ada@example.com', '198.51.100.7');
  expect(refused.allowed).toBe(false);
  expect(!refused.allowed && refused.retryAfterSeconds).toBeGreaterThan(0);
  expect((await second!.attempt('ada@example.com', '198.51.100.8')).allowed).toBe(false);
  expect((await second!.attempt('grace@example.com', '198.51.100.8')).allowed).toBe(true);
  const keys = await clients[0]!.keys('*');
  expect(keys.some((key) => key.startsWith('crucible:limits:sign-in:email:'))).toBe(true);
  expect(keys.join(' ')).not.toMatch(/ada|example/i);
});
