import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAttemptLimits } from '../../../src/accounts/attempt-limits.ts';
import { readDashboardConfig } from '../../../src/config/dashboard.ts';
import { createRedisRateLimiter } from '../../../src/limits/redis-rate-limiter.ts';
import { connectRedis, type RedisClient } from '../../../src/store/redis.ts';
import { startRedis, type TestRedis } from '../../support/redis.ts';

// With REDIS_URL every server process counts sign-in and sign-up attempts in the same buckets
// (docs/dashboard.md#sign-in-limits): two limiters over two connections to a real redis-server stand for two processes.

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

const processes = () => clients.map((client) => createAttemptLimits(createRedisRateLimiter(client), { ...readDashboardConfig({}), ipv6PrefixLength: 64 }));

it('counts the sign-ins of every process against one email from one address, and keeps no email in Redis', async () => {
  const [first, second] = processes();
  for (let i = 0; i < 10; i++) expect(await (i % 2 ? first! : second!).signIn('Ada@Example.com', '192.0.2.7'), `attempt ${i + 1}`).toEqual({ allowed: true });
  const refused = await first!.signIn('ada@example.com', '192.0.2.7');
  expect(refused.allowed).toBe(false);
  expect(!refused.allowed && refused.retryAfterSeconds).toBeGreaterThan(0);
  expect((await second!.signIn('ada@example.com', '192.0.2.7')).allowed).toBe(false);
  expect((await second!.signIn('ada@example.com', '198.51.100.8')).allowed).toBe(true);
  expect((await second!.signIn('grace@example.com', '192.0.2.7')).allowed).toBe(true);
  const keys = await clients[0]!.keys('*');
  expect(keys.some((key) => key.startsWith('crucible:limits:sign-in:email-ip:'))).toBe(true);
  expect(keys.join(' ')).not.toMatch(/ada|example/i);
});

it('counts the sign-ups of every process against one address', async () => {
  const [first, second] = processes();
  for (let i = 0; i < 10; i++) expect(await (i % 2 ? first! : second!).signUp('203.0.113.9'), `sign-up ${i + 1}`).toEqual({ allowed: true });
  expect((await first!.signUp('203.0.113.9')).allowed).toBe(false);
  expect((await second!.signUp('203.0.113.9')).allowed).toBe(false);
  expect((await second!.signUp('203.0.113.10')).allowed).toBe(true);
});
